import type { ListPoolsReturnType } from "../../read/listPools";
import { chainLabel, freshnessTag, observed, poolLink, scrollTable } from "../components";
import { NOT_MEASURED, formatUsd } from "../format";
import { html } from "../html";
import { renderPage, type PageChrome } from "../layout";

/**
 * The pools page: every tracked pool with its depth, observation time and stale flag, and its latest attestation's
 * horizon and confidence (the `listPools` reader of `GET /api/v1/pools`), the fresh total, and the stale depths held
 * out of it.
 */
export function renderPoolsPage(data: ListPoolsReturnType, chrome: PageChrome): string {
  const rows = data.pools.map(
    (pool) => html`<tr${pool.stale ? html` class="is-stale"` : ""}>
<th scope="row">${poolLink(pool)}<br><code class="id">${pool.id}</code></th>
<td data-label="Chain">${chainLabel(pool.chainId)}</td>
<td data-label="Protocol">${pool.protocol}<br><span class="muted">${pool.kind}</span></td>
<td data-label="Depth" class="num">${formatUsd(pool.depthUsd)}</td>
<td data-label="Observed">${observed(pool.observedAt, data.asOf)}</td>
<td data-label="Status">${freshnessTag(pool.stale)}</td>
<td data-label="Horizon" class="num">${claimHorizon(pool, data.asOf)}</td>
<td data-label="Confidence" class="num">${pool.confidence === null ? NOT_MEASURED : `${Math.round(pool.confidence * 100)} %`}</td>
</tr>`,
  );
  const body = html`<p>
      Depth is what each pool holds now. A depth observed longer ago than the freshness window
      (${Math.round(data.freshnessWindowS / 60)} min) is <strong>stale</strong>: it is never summed and is listed beside
      the total.
    </p>
    <dl class="figures">
      <div>
        <dt>Fresh total depth</dt>
        <dd>${formatUsd(data.total.depthUsd)} <span class="muted">(${data.total.pools} pools)</span></dd>
      </div>
      <div>
        <dt>Held out (stale)</dt>
        <dd>${formatUsd(data.heldOut.depthUsd)} <span class="muted">(${data.heldOut.pools.length} pools)</span></dd>
      </div>
    </dl>
    ${scrollTable(
      "Tracked pools, by chain then address",
      html`<tr>
        <th scope="col">Pool</th>
        <th scope="col">Chain</th>
        <th scope="col">Protocol</th>
        <th scope="col" class="num">Depth</th>
        <th scope="col">Observed</th>
        <th scope="col">Status</th>
        <th scope="col" class="num">Horizon</th>
        <th scope="col" class="num">Confidence</th>
      </tr>`,
      rows,
      "No pool is tracked yet.",
      true,
    )}`;
  return renderPage({ page: "pools", title: "Pools", chrome, body });
}

/** The latest claim's horizon in days, marked when its attestation has expired; a dash when none was issued. */
function claimHorizon(pool: { horizon: number | null; expiry: number | null }, now: number) {
  if (pool.horizon === null) return NOT_MEASURED;
  const days = `${pool.horizon} ${pool.horizon === 1 ? "day" : "days"}`;
  return pool.expiry !== null && pool.expiry <= now ? html`${days}<br /><span class="muted">expired</span>` : days;
}
