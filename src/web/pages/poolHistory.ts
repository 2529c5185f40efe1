import type { GetPoolClaimsReturnType } from "../../read/getPoolClaims";
import type { GetPoolHistoryReturnType } from "../../read/getPoolHistory";
import type { PoolDimensions } from "../../read/internal/poolDimensions";
import { barChart } from "../charts/barChart";
import { claimsOnDay, historyChart } from "../charts/historyChart";
import { scrollTable } from "../components";
import { formatConfidence, formatDay, formatUsd, timeTag } from "../format";
import { html, type Html } from "../html";

/**
 * The history's range toggles (`?range=`), each a number of complete UTC days for the reader (which takes any 1–730):
 * `all` asks for the reader's longest, 730 days, and the page starts at the first day with data.
 */
export const HISTORY_RANGES = { "7d": 7, "30d": 30, "90d": 90, "1y": 365, all: 730 } as const;
export type HistoryRange = keyof typeof HISTORY_RANGES;
const RANGE_LABELS: Record<HistoryRange, string> = {
  "7d": "7 days",
  "30d": "30 days",
  "90d": "90 days",
  "1y": "1 year",
  all: "All",
};

/** The range a number of days is (for the toggle marked current), or null for another count (`?days=60`). */
export function rangeOfDays(days: number): HistoryRange | null {
  const found = (Object.keys(HISTORY_RANGES) as HistoryRange[]).find((range) => HISTORY_RANGES[range] === days);
  return found === undefined || found === "all" ? null : found;
}

/**
 * The history the page draws for `all`: the reader's 730 days from the first with a stored low (the days before the
 * pool was tracked are no data, not a range to scroll through); at least 7 days are kept. Other ranges are as read.
 */
export function historyForRange(
  history: GetPoolHistoryReturnType,
  range: HistoryRange | null,
): GetPoolHistoryReturnType {
  if (range !== "all") return history;
  const first = history.days.findIndex((day) => day.lowestDepthUsd !== null);
  const start = first === -1 ? history.days.length - 7 : Math.min(first, history.days.length - 7);
  return start <= 0 ? history : { ...history, days: history.days.slice(start) };
}

/** The range toggles: links (`?range=`), so they work without JavaScript; the current one is marked. */
function rangeToggles(current: HistoryRange | null): Html {
  const items = (Object.keys(HISTORY_RANGES) as HistoryRange[]).map(
    (range) =>
      html`<li>
        <a
          href="?range=${range}#history-heading"
          data-range="${range}"
          ${range === current ? html`aria-current="true"` : ""}
          >${RANGE_LABELS[range]}</a
        >
      </li>`,
  );
  return html`<nav aria-label="History range" class="range-toggles">
    <ul>
      ${items}
    </ul>
  </nav>`;
}

/** The history: the range toggles, the chart, and the days as a table (the chart's data, exact amounts). */
export function historySection(
  history: GetPoolHistoryReturnType,
  pool: PoolDimensions,
  record: GetPoolClaimsReturnType,
  range: HistoryRange | null,
): Html {
  const { symbol } = pool;
  const n = history.days.length;
  const rows = history.days.map((day) => {
    const claims = claimsOnDay(history, day.date);
    return html`<tr${day.source === "feed-daily" ? html` class="feed-daily"` : ""}>
      <th scope="row">${day.date}</th>
      <td class="num" data-label="Lowest depth">${day.lowestDepthUsd === null ? "no data" : formatUsd(day.lowestDepthUsd)}</td>
      <td data-label="Source">${day.lowestDepthUsd === null ? html`<span class="muted">—</span>` : day.source === "feed-daily" ? html`<span class="tag feed">feed-daily</span>` : "observed"}</td>
      <td data-label="Claims">${claims.length === 0 ? html`<span class="muted">none</span>` : claims.map((c, i) => html`${i > 0 ? html`<br />` : ""}floor ${formatUsd(c.floorUsd)} <span class="muted">(issued ${formatDay(c.issuedAt)})</span>`)}</td>
    </tr>`;
  });
  return html`<section aria-labelledby="history-heading" data-history>
    <h2 id="history-heading" tabindex="-1">
      History: ${range === "all" ? html`all ${n} days stored` : html`the last ${n} days`}
    </h2>
    ${rangeToggles(range)} ${historyChart(history, symbol, record)}
    <details class="history-table">
      <summary>The ${n} days as a table (the chart's data)</summary>
      ${scrollTable(
        "Daily lows (the chart's data), oldest first",
        html`<tr>
          <th scope="col">Day (UTC)</th>
          <th scope="col" class="num">Lowest depth</th>
          <th scope="col">Source</th>
          <th scope="col">Claims covering the day</th>
        </tr>`,
        rows,
        "No complete day in the range.",
        true,
      )}
    </details>
    ${claimsTable(history)} ${volumeSection(history, pool)}
  </section>`;
}

/**
 * The pool's daily swap volume over the same days (the history reader's `volumeUsd`, from the pool's own `Swap` logs):
 * a bar chart with a crosshair, or why there is none. Fees are not stored, so no fee chart is drawn.
 */
function volumeSection(history: GetPoolHistoryReturnType, pool: PoolDimensions): Html {
  const days = history.days;
  const stored = days.filter((d) => d.volumeUsd !== null);
  const first = days[0].date;
  const last = days[days.length - 1].date;
  const body =
    pool.kind !== "amm"
      ? html`<p class="muted" data-no-volume>
          Not measured: a lending reserve has no swaps, so no volume is stored for it.
        </p>`
      : stored.length === 0
        ? html`<p class="muted" data-no-volume>
            No swap volume is stored for these days (the pool's <code>Swap</code> logs were not read over them): nothing
            is drawn rather than zeros.
          </p>`
        : html`${barChart({
              id: "pool-volume",
              caption: `Daily swap volume of ${pool.symbol}, ${first} to ${last}, summed from the pool's own Swap logs (${stored.length} of ${days.length} days stored; a dashed mark on the axis: no data, not zero).`,
              labels: days.map((d) => d.date),
              values: days.map((d) => d.volumeUsd),
              valueTitle: "Swap volume of the day (USD)",
              valueName: "swap volume",
            })}
            <p class="muted">
              Total over the ${stored.length} days stored:
              ${formatUsd(stored.reduce((sum, d) => sum + d.volumeUsd!, 0))}. Fees are not stored by this service, so no
              fee chart is shown.
            </p>`;
  return html`<h3 id="pool-volume-heading">Daily swap volume</h3>
    ${body}`;
}

/** The claims over the days shown: when issued, their terms and their floor. */
function claimsTable(history: GetPoolHistoryReturnType): Html {
  return scrollTable(
    "Claims issued over these days",
    html`<tr>
      <th scope="col">Issued</th>
      <th scope="col" class="num">Horizon</th>
      <th scope="col" class="num">Confidence</th>
      <th scope="col" class="num">Floor</th>
      <th scope="col">Settles</th>
    </tr>`,
    history.attestations.map(
      (c) =>
        html`<tr>
          <th scope="row">${timeTag(c.issuedAt)}</th>
          <td class="num" data-label="Horizon">${c.horizon} days</td>
          <td class="num" data-label="Confidence">${formatConfidence(c.confidence)}</td>
          <td class="num" data-label="Floor">${formatUsd(c.floorUsd)}</td>
          <td data-label="Settles">${timeTag(c.settlesAt)}</td>
        </tr>`,
    ),
    "No attestation was issued over these days.",
    true,
  );
}
