import type { GetPoolAttestationReturnType } from "../../read/getPoolAttestation";
import type { GetPoolClaimsReturnType, PoolClaim } from "../../read/getPoolClaims";
import type { GetPoolHistoryReturnType } from "../../read/getPoolHistory";
import type { PoolDimensions } from "../../read/internal/poolDimensions";
import { evidenceChart } from "../charts/evidenceChart";
import { chainLabel, freshnessTag, notice, observed, scrollTable } from "../components";
import {
  formatConfidence,
  formatDay,
  formatLendingRate,
  formatNumber,
  formatRate,
  formatShare,
  formatUsd,
  protocolName,
  timeTag,
  usdAmount,
} from "../format";
import { CLAIM_TARGET } from "../../attest/issueAttestations";
import { DEFAULT_CANDIDATES } from "../../model/horizon";
import { html, type Html } from "../html";
import { renderPage, type PageChrome } from "../layout";
import { historyForRange, historySection, rangeOfDays, type HistoryRange } from "./poolHistory";
import { watchToggle } from "./pools";

export type PoolPageParameters = {
  /** The pool's last values (the `comparePools` reader of `GET /api/v1/compare?pools=<id>`, for this one pool). */
  pool: PoolDimensions;
  freshnessWindowS: number;
  /** Its latest attestation (the `getPoolAttestation` reader of `GET /api/v1/pool/{pool}`), or null when none. */
  attestation: GetPoolAttestationReturnType | null;
  /** Why there is none: the reader's reason (its `NO_ATTESTATION` error); null when there is one. */
  noAttestation: string | null;
  /** Its daily lows and the claims over them (the `getPoolHistory` reader of `GET /api/v1/pool/{pool}/history`). */
  history: GetPoolHistoryReturnType;
  /** Its track record: the first page of its claims with their grades (the `getPoolClaims` reader of
   * `GET /api/v1/pool/{pool}/claims`). */
  record: GetPoolClaimsReturnType;
  /** The expected signer: what `GET /api/v1/attester` serves (never the payload's `attester` field). */
  attester: string;
  now: number;
  /** Whether the pool is on the signed-in wallet's watchlist (`listWalletWatchlist`). */
  watched?: boolean;
  /** The range toggle the history was asked with (`?range=`); null for `?days=N` (then a toggle of N days is current). */
  range?: HistoryRange | null;
};

/**
 * A pool's page, for every tracked pool (stale and unattested ones included), in the order a reader on a phone needs:
 * since when its depth is stale (if it is), its latest attestation (the claim in plain words, verified IN THE BROWSER
 * against the pinned attester, with the claim's evidence window) or the reason there is none, its last values with
 * their observation times, its history: the daily lows with the
 * past claims' floors drawn over them (coloured by grade), followed by the same days as a table, and its track record:
 * its claims, newest first, each with its grade, floor and the low that decided it.
 */
export function renderPoolPage(parameters: PoolPageParameters, chrome: PageChrome): string {
  const { pool, attestation, noAttestation, record } = parameters;
  const range = parameters.range ?? rangeOfDays(parameters.history.days.length);
  const history = historyForRange(parameters.history, range);
  const body = html`<p class="lead">
      ${protocolName(pool.protocol)} · ${pool.kind} · ${chainLabel(pool.chainId)}<br /><code class="id"
        >${pool.id}</code
      >
    </p>
    ${watchToggle(pool, parameters.watched === true, "pool")} ${staleNotice(parameters)}
    ${attestation === null ? noAttestationSection(noAttestation ?? "") : attestationSections(parameters, attestation)}
    ${lastValues(parameters)} ${historySection(history, pool, record, range)} ${trackRecordSection(record)}`;
  return renderPage({
    page: "pools",
    title: pool.symbol,
    chrome,
    body,
    data: attestation === null ? {} : { "pool-id": pool.id, attester: parameters.attester },
    // The star button POSTs a form here: its `Origin` (the CSRF rule) needs the same-origin referrer policy.
    referrerPolicy: "same-origin",
  });
}

/** The depth's staleness: since when (its observation + the window), or that it was never observed. */
function staleNotice({ pool, freshnessWindowS, now }: PoolPageParameters): Html {
  const at = pool.observedAt.depthUsd;
  if (pool.depthUsd === null || at === null) {
    return notice("info", html`<p><strong>Never observed.</strong> No depth reading of this pool is stored yet.</p>`);
  }
  if (!pool.staleFields.includes("depthUsd")) return html``;
  return notice(
    "error",
    html`<p>
      <strong>Stale since ${timeTag(at + freshnessWindowS)}</strong>: its depth was last observed ${observed(at, now)},
      and a value older than the freshness window (${Math.round(freshnessWindowS / 60)} min) is stale. The last values
      are shown; no total counts them.
    </p>`,
  );
}

/** One row of the last values: the figure, when it was observed, and whether it is fresh. */
function valueRow(label: string, value: Html | string, at: number | null, stale: boolean | null, now: number): Html {
  return html`<tr>
    <th scope="row">${label}</th>
    <td class="num" data-label="Value">${value}</td>
    <td data-label="Observed">${at === null ? html`<span class="muted">not measured</span>` : observed(at, now)}</td>
    <td data-label="Status">${stale === null ? html`<span class="muted">—</span>` : freshnessTag(stale)}</td>
  </tr>`;
}

/** A lending figure's observation time and staleness, or none when the figure is not measured. */
function measuredAt(value: number | null, at: number | null, stale: boolean): [number | null, boolean | null] {
  return value === null ? [null, null] : [at, stale];
}

/** The pool's last values (its four dimensions, and a lending reserve's rates and utilisation). */
function lastValues(parameters: PoolPageParameters): Html {
  const { pool, now } = parameters;
  const at = pool.observedAt;
  const staleOf = (field: (typeof pool.staleFields)[number]) =>
    pool[field] === null ? null : pool.staleFields.includes(field);
  const lending = pool.lending;
  const rows: Html[] = [valueRow("Depth", usdAmount(pool.depthUsd), at.depthUsd, staleOf("depthUsd"), now)];
  if (pool.kind === "amm") {
    rows.push(
      valueRow("24 h volume", usdAmount(pool.volume24hUsd), at.volume24hUsd, staleOf("volume24hUsd"), now),
      valueRow("Yield", formatRate(pool.yieldPct, "APY"), at.yieldPct, staleOf("yieldPct"), now),
    );
    if (pool.yieldSplit !== null) {
      const { basePct, rewardPct } = pool.yieldSplit;
      const part = (value: number | null) =>
        value === null ? html`<span class="muted">not given</span>` : formatRate(value, "APY");
      rows.push(
        valueRow("Base APY", part(basePct), at.yieldPct, staleOf("yieldPct"), now),
        valueRow("Reward APY", part(rewardPct), at.yieldPct, staleOf("yieldPct"), now),
      );
    }
  } else {
    rows.push(valueRow("Supply rate", formatLendingRate(pool.yieldPct), at.yieldPct, staleOf("yieldPct"), now));
    if (lending !== null) {
      const { borrowAprPct, utilisation, observedAt, stale } = lending;
      rows.push(
        valueRow("Borrow rate", formatLendingRate(borrowAprPct), ...measuredAt(borrowAprPct, observedAt, stale), now),
        valueRow("Utilisation", formatShare(utilisation), ...measuredAt(utilisation, observedAt, stale), now),
      );
    }
    rows.push(
      valueRow("Exitability", usdAmount(pool.exitabilityUsd), at.exitabilityUsd, staleOf("exitabilityUsd"), now),
    );
  }
  return html`<section aria-labelledby="now-heading">
    <h2 id="now-heading">Last values</h2>
    ${scrollTable(
      "Last values, each with its own observation time",
      html`<tr>
        <th scope="col">Figure</th>
        <th scope="col" class="num">Value</th>
        <th scope="col">Observed</th>
        <th scope="col">Status</th>
      </tr>`,
      rows,
      "Nothing measured yet.",
      true,
    )}
    ${
      pool.kind === "amm"
        ? html`<p class="muted apy-split" data-apy-split>
            ${
              pool.yieldSplit === null
                ? html`Base and reward APY: not given. The yield above is the yields feed's APY, base and reward
                  together, and the feed's row gave no split for this pool (or it was stored before the service kept
                  one), so neither part is shown rather than guessed.`
                : html`Base APY is the pool's own yield (trading fees); reward APY is incentives, both as the yields
                  feed splits the yield above, from the same row and observed with it.`
            }
            Incentive campaigns (the reward side) are listed by end date on
            <a href="/app/liquidity-map">the liquidity map</a>.
          </p>`
        : ""
    }
  </section>`;
}

/** A tracked pool without an attestation: the reader's reason. */
function noAttestationSection(reason: string): Html {
  return html`<section aria-labelledby="claim-heading">
    <h2 id="claim-heading">No attestation yet</h2>
    ${notice("info", html`<p><strong>Why:</strong> ${reason}</p>`)}
  </section>`;
}

/** The claim, the in-browser verification panel and the claim's evidence window. */
function attestationSections(parameters: PoolPageParameters, a: GetPoolAttestationReturnType): Html {
  const id = parameters.pool.id;
  return html`<section aria-labelledby="claim-heading">
      <h2 id="claim-heading">The claim</h2>
      <p>
        This pool's depth stays at or above
        <strong>${a.claim.floor} × ${usdAmount(a.claim.depthAtIssuanceUsd)}</strong> (=
        ${usdAmount(a.claim.thresholdUsd)}) for <strong>${a.horizon} days</strong>, with confidence
        <strong>${formatConfidence(a.confidence)}</strong>. Outcome: ${outcomeTag(a.outcome)} (graded once its window
        has closed: see the <a href="#record-heading">track record</a>).
      </p>
      <p class="why-horizon">${whyHorizon(a)}</p>
      <p class="promise">
        What ${formatConfidence(a.confidence)} promises: of many claims made at this confidence, about
        ${Math.round(a.confidence * 100)} in 100 should hold. It is not a promise about this one claim;
        <a href="/app/model">the model page</a> shows how often such claims did hold.
      </p>
      <dl class="facts times">
        <div>
          <dt>Issued</dt>
          <dd>${timeTag(a.issuedAt)}</dd>
          <dd class="meaning">When the attester signed the claim; its window starts here.</dd>
        </div>
        <div>
          <dt>Expires</dt>
          <dd>
            ${timeTag(a.expiry)}${a.expiry <= parameters.now ? html` <span class="tag stale">expired</span>` : ""}
          </dd>
          <dd class="meaning">
            When the signature stops being a current attestation (a fresh one replaces it); the claim itself runs on
            until it settles.
          </dd>
        </div>
        <div>
          <dt>Settles</dt>
          <dd>${timeTag(a.claim.settlesAt)}</dd>
          <dd class="meaning">
            When the claim's ${a.horizon}-day window closes and it is graded: held if every day stayed at or above the
            floor.
          </dd>
        </div>
        <div>
          <dt>Model</dt>
          <dd><code>${a.claim.model}</code></dd>
        </div>
      </dl>
    </section>
    <section aria-labelledby="verify-heading" class="verify" data-verify>
      <h2 id="verify-heading">Signature, verified in your browser</h2>
      <p>
        Your browser fetches this attestation from <code>GET /api/v1/pool/${id}</code>, rebuilds the canonical message
        from its fields and recovers the signer with the same library as <code>npx attest verify</code>. The expected
        signer is pinned to the service's attester, never taken from the payload.
      </p>
      <p class="status" role="status" data-verify-status>Verifying… (this needs JavaScript)</p>
      <dl class="facts">
        <div>
          <dt>Signature</dt>
          <dd data-verify-valid>—</dd>
        </div>
        <div>
          <dt>Expiry</dt>
          <dd data-verify-expired>—</dd>
        </div>
        <div>
          <dt>Expected attester (pinned)</dt>
          <dd><code class="address">${parameters.attester}</code></dd>
        </div>
        <div>
          <dt>Recovered signer</dt>
          <dd><code class="address" data-verify-recovered>—</code></dd>
        </div>
      </dl>
      <details>
        <summary>Canonical message that was checked</summary>
        <pre data-verify-canonical>—</pre>
      </details>
    </section>
    <section aria-labelledby="evidence-heading">
      <h2 id="evidence-heading">Evidence inside the claim's window</h2>
      ${evidenceChart(a, parameters.now)}
    </section>`;
}

/** An outcome as a tag: the word carries it, the colour repeats it. */
function outcomeTag(outcome: string): Html {
  return html`<span class="tag outcome ${outcome}">${outcome}</span>`;
}

/** The low that decided a grade: a held claim's lowest window low, a failed one's first failing low; else a dash. */
function decidingLow(claim: PoolClaim): Html {
  if (claim.lowestDepthUsd === null || claim.lowestDepthDate === null) return html`<span class="muted">—</span>`;
  return html`${formatUsd(claim.lowestDepthUsd)} <span class="muted">(${claim.lowestDepthDate})</span>`;
}

/**
 * The pool's track record (the `getPoolClaims` reader, first page): in words how its claims fared, then each claim,
 * newest first, with its terms, its outcome, the low that decided it and, when it failed, its first failing day.
 */
function trackRecordSection(record: GetPoolClaimsReturnType): Html {
  const { claims } = record;
  const count = (outcome: PoolClaim["outcome"]) => claims.filter((c) => c.outcome === outcome).length;
  const [held, failed, voided, pending] = [count("held"), count("failed"), count("void"), count("pending")];
  const graded = held + failed + voided;
  const route = `/api/v1/pool/${record.pool}/claims`;
  const more =
    record.next === null
      ? html`All of them are listed; the same list, with each attestation as signed, is
          <a href="${route}"><code>GET /api/v1/pool/{pool}/claims</code></a
          >.`
      : html`These are the newest ${claims.length}; the older ones are in
          <a href="${route}?cursor=${encodeURIComponent(record.next)}"><code>GET /api/v1/pool/{pool}/claims</code></a>
          (its next page), each with its attestation as signed.`;
  const summary =
    claims.length === 0
      ? html`<p>No claim was signed for this pool yet.</p>`
      : html`<p>
          Of the <strong>${formatNumber(claims.length)}</strong> claims listed (the pool's first attestation of each UTC
          day, the unit the accuracy record grades), <strong>${formatNumber(graded)}</strong> are graded:
          <strong>${formatNumber(held)} held</strong>, <strong>${formatNumber(failed)} failed</strong> and
          ${formatNumber(voided)} void (a window day not observed); ${formatNumber(pending)} are pending (their window
          has not closed). ${more}
        </p>`;
  const rows = claims.map(
    (c) =>
      html`<tr data-outcome="${c.outcome}" data-issued-at="${c.issuedAt}">
        <th scope="row">${formatDay(c.issuedAt)}</th>
        <td class="num" data-label="Horizon">${c.horizon} days</td>
        <td class="num" data-label="Confidence">${formatConfidence(c.confidence)}</td>
        <td class="num" data-label="Floor" data-floor>${formatUsd(c.floorUsd)}</td>
        <td data-label="Settles">${formatDay(c.settlesAt)}</td>
        <td data-label="Outcome" data-outcome-cell>${outcomeTag(c.outcome)}</td>
        <td class="num" data-label="Lowest low">${decidingLow(c)}</td>
        <td data-label="First failing day">
          ${
            c.outcome === "failed" && c.lowestDepthDate !== null
              ? c.lowestDepthDate
              : html`<span class="muted">—</span>`
          }
        </td>
      </tr>`,
  );
  return html`<section aria-labelledby="record-heading">
    <h2 id="record-heading">Track record</h2>
    ${summary}
    <p class="muted">
      A claim is graded once, the day after it settles, from the observed daily lows of its window. Lowest low: a held
      claim's lowest observed low of its window; a failed claim's low on its first failing day (grading stops there).
    </p>
    ${scrollTable(
      "The pool's claims, newest first, with their grades",
      html`<tr>
        <th scope="col">Issued (UTC day)</th>
        <th scope="col" class="num">Horizon</th>
        <th scope="col" class="num">Confidence</th>
        <th scope="col" class="num">Floor</th>
        <th scope="col">Settles</th>
        <th scope="col">Outcome</th>
        <th scope="col" class="num">Lowest low</th>
        <th scope="col">First failing day</th>
      </tr>`,
      rows,
      "No claim was signed for this pool yet.",
      true,
    )}
  </section>`;
}

/**
 * Why the pool got this horizon, in one sentence from what the attestation carries (no second query): the model
 * publishes the longest candidate horizon whose confidence met the target. The attestation does not record how the
 * longer candidates scored, so the next longer one is named with the ways it can fall short, not with a figure.
 */
export function whyHorizon(a: Pick<GetPoolAttestationReturnType, "horizon" | "confidence">): string {
  const candidates: readonly number[] = DEFAULT_CANDIDATES;
  const target = `${Math.round(CLAIM_TARGET * 100)} %`;
  const list = `${candidates.slice(0, -1).join(", ")} and ${candidates[candidates.length - 1]} days`;
  const chosen = `Why ${a.horizon} days: the model tries horizons of ${list}, and publishes the longest whose confidence (how often windows of that length held across the other tracked pools whose own past scored like this pool's; where those are still too few, a cautious share of this pool's own past windows) met the ${target} target; ${a.horizon} days met it at ${formatConfidence(a.confidence)}.`;
  const next = candidates.find((h) => h > a.horizon);
  if (next === undefined) return `${chosen} It is the longest horizon the model offers.`;
  return `${chosen} The next longer one, ${next} days, did not qualify: its confidence fell below ${target}, the history held too few complete ${next}-day windows to judge it, or a known incentive campaign ends before it (this attestation does not record which).`;
}
