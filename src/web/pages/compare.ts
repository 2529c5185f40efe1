import type { ComparePoolsReturnType } from "../../read/comparePools";
import type { GetPoolAttestationReturnType } from "../../read/getPoolAttestation";
import { DIMENSIONS, type Dimension, type PoolDimensions } from "../../read/internal/poolDimensions";
import type { PoolListItem } from "../../read/listPools";
import { notice, poolLabel, poolNames, scrollTable, staleList, type PoolNames } from "../components";
import { NOT_MEASURED, chainName, countOf, formatConfidence, formatUsd, protocolName } from "../format";
import { html, type Html } from "../html";
import { renderPage, type PageChrome } from "../layout";
import { shortNoAttestationReason } from "./pools";
import { DIMENSION_LABELS, formatDimension, yieldOf } from "./liquidityMap";

/** How many pools the comparison takes (the API's limit). */
export const COMPARE_MAX = 4;

export type ComparePageParameters = {
  /** Every tracked pool, for the picker (the `listPools` reader). */
  pools: readonly PoolListItem[];
  /** The ids asked for, as given. */
  selected: readonly string[];
  /** The comparison (the `comparePools` reader of `GET /api/v1/compare`), or null when nothing is picked yet. */
  result: ComparePoolsReturnType | null;
  /** Each compared pool's latest claim (the `getPoolAttestation` reader), or why it has none; by pool id. */
  claims: ReadonlyMap<string, CompareClaim>;
  /** A refusal to show instead of the result (too many pools, a repeated pool...). */
  error: string | null;
};

/** A compared pool's latest claim as `GET /api/v1/pool/{pool}` gives it, or the reason that reader gives for none. */
export type CompareClaim = GetPoolAttestationReturnType | { noAttestationReason: string };

/**
 * The compare page: the comparison first (when pools are picked), one row per pool in the order picked (a card per
 * pool on a phone): the product's own figures first (horizon, confidence, floor of the latest claim), then the four
 * dimensions, the row(s) holding the largest fresh value of each marked (yield: per kind, an AMM APY beside a lending
 * supply rate is not "larger"). Then the picker of up to four pools (the client bundle stops a fifth). Nothing is
 * ranked or ordered by value.
 */
export function renderComparePage(parameters: ComparePageParameters, chrome: PageChrome): string {
  const { result, error } = parameters;
  const body = html`${error === null ? "" : notice("error", html`<p>${error}</p>`)}
  ${result === null ? "" : table(result, parameters.claims, poolNames(parameters.pools))} ${picker(parameters)}`;
  return renderPage({ page: "compare", title: "Compare pools", chrome, body });
}

function picker({ pools, selected }: ComparePageParameters): Html {
  const chosen = new Set(selected.map((id) => id.toLowerCase()));
  const boxes = pools.map(
    (pool, i) =>
      html`<li>
        <input
          type="checkbox"
          id="pick-${i}"
          name="pools"
          value="${pool.id}"
          ${chosen.has(pool.id) ? html` checked` : ""}
        />
        <label for="pick-${i}">${pool.symbol} ${pickerWhere(pool)}</label>
      </li>`,
  );
  return html`<form method="get" action="/app/compare" data-compare-form>
    <fieldset>
      <legend>Pick up to ${COMPARE_MAX} pools</legend>
      <ul class="picker">
        ${boxes}
      </ul>
      <p class="status" role="status" data-compare-status></p>
    </fieldset>
    <button type="submit">Compare</button>
  </form>`;
}

/** What the "largest" tag says on a field: for yield, which kind of yield it is the largest of when kinds are mixed. */
function largestTag(field: Dimension, pool: PoolDimensions, mixedKinds: boolean): Html {
  const text =
    field !== "yieldPct" || !mixedKinds
      ? "largest"
      : pool.kind === "amm"
        ? "largest APY of the AMM pools"
        : "largest supply rate of the lending pools";
  return html` <span class="tag largest">${text}</span>`;
}

/** The claim's cells: horizon, confidence and floor, or one cell with the reason there is no claim. */
function claimCells(claim: CompareClaim | undefined): Html {
  if (claim === undefined) return html`<td colspan="3" class="wide">${NOT_MEASURED}</td>`;
  if ("noAttestationReason" in claim)
    return html`<td data-label="Horizon, confidence, floor" colspan="3" class="wide no-claim">
      <span class="no-claim-reason" title="${claim.noAttestationReason}"
        >No attestation: ${shortNoAttestationReason(claim.noAttestationReason)}</span
      >
    </td>`;
  return html`<td data-label="Horizon" class="num">${countOf(claim.horizon, "day")}</td>
    <td data-label="Confidence" class="num">${formatConfidence(claim.confidence)}</td>
    <td data-label="Floor" class="num">${formatUsd(claim.claim.floor)}</td>`;
}

function table(result: ComparePoolsReturnType, claims: ReadonlyMap<string, CompareClaim>, names: PoolNames): Html {
  const mixedKinds = new Set(result.pools.map((pool) => pool.kind)).size > 1;
  const head = html`<tr>
    <th scope="col">Pool</th>
    <th scope="col" class="num">Horizon</th>
    <th scope="col" class="num">Confidence</th>
    <th scope="col" class="num">Floor</th>
    ${DIMENSIONS.map((field) => html`<th scope="col" class="num">${DIMENSION_LABELS[field]}</th>`)}
  </tr>`;
  const rows = result.pools.map((pool) => {
    const cells = DIMENSIONS.map((field) => {
      const stale = pool.staleFields.includes(field);
      const mark = result.largest[field].includes(pool.id);
      return html`<td
        data-label="${DIMENSION_LABELS[field]}"
        class="num${mark ? " largest" : ""}${stale ? " stale-value" : ""}"
      >
        ${field === "yieldPct" ? yieldOf(pool) : formatUsd(pool[field])}${mark ? largestTag(field, pool, mixedKinds) : ""}${
          stale ? html` <span class="tag stale">stale</span>` : ""
        }
      </td>`;
    });
    return html`<tr data-pool="${pool.id}">
      <th scope="row">
        ${poolLabel(pool)}<br /><span class="muted">${pool.kind === "amm" ? "AMM pool" : "lending reserve"}</span>
      </th>
      ${claimCells(claims.get(pool.id))} ${cells}
    </tr>`;
  });
  return html`<section aria-labelledby="result-heading">
    <h2 id="result-heading">Side by side</h2>
    <p>
      In the order you picked. Horizon, confidence and floor are each pool's latest claim: it keeps at least the floor
      for that many days, at that confidence. "largest" marks the largest <em>fresh</em> value of a field (every pool of
      a tie); a stale value is never marked.
      ${
        mixedKinds
          ? html`Yield is compared like with like: an AMM pool's APY (fees and rewards) and a lending supply rate are
            different kinds, so each kind's largest is marked apart.`
          : ""
      }
      Nothing is ranked.
    </p>
    ${scrollTable("Pools compared", head, rows, "No pool picked.", true, "compare")}
    <h3>Held out (stale)</h3>
    ${staleList(result.stale, result.asOf, formatDimension, names)}
  </section>`;
}

/** A picked pool's venue and chain, after its symbol on the same line (its label reads "WETH-USDC · Uniswap V2 · …"). */
function pickerWhere(pool: PoolListItem): Html {
  return html`<span class="muted">· ${protocolName(pool.protocol)} · ${chainName(pool.chainId)}</span>`;
}
