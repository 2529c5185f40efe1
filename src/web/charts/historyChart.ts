import type { GetPoolHistoryReturnType, PoolHistoryAttestation } from "../../read/getPoolHistory";
import { dayStart } from "../../read/internal/utcDays";
import { formatConfidence, formatDay, formatUsd, formatUsdCompact } from "../format";
import { html, type Html } from "../html";
import { linearScale, px } from "./scale";
import { usdAxis } from "./usdAxis";

const W = 640;
const H = 260;
const M = { top: 16, right: 16, bottom: 40, left: 70 };
const DAY = 86_400;

/** A claim's window clipped to the days shown, or null when it lies outside them. */
export function claimSpan(
  claim: PoolHistoryAttestation,
  from: number,
  to: number,
): { start: number; end: number } | null {
  const start = Math.max(claim.issuedAt, from);
  const end = Math.min(claim.settlesAt, to);
  return end > start ? { start, end } : null;
}

/** The claims whose window covers any part of the UTC day `date`. */
export function claimsOnDay(history: GetPoolHistoryReturnType, date: string): PoolHistoryAttestation[] {
  const start = dayStart(date);
  return history.attestations.filter((claim) => claim.issuedAt < start + DAY && claim.settlesAt > start);
}

/**
 * A pool's history as an SVG chart (the reader of `GET /api/v1/pool/{pool}/history`): each day's lowest depth as a
 * line of points (a day backfilled from the feed's daily series is a hollow point; a day with nothing stored is a
 * dashed mark on the axis, never a zero), and each claim's floor drawn as a red segment over the days its window
 * covers. The figcaption is the text equivalent (range, lowest and highest day, every claim); the table the page
 * shows after it lists every day.
 */
export function historyChart(history: GetPoolHistoryReturnType, symbol: string): Html {
  const { days } = history;
  const from = dayStart(days[0].date);
  const to = dayStart(days[days.length - 1].date) + DAY;
  const lows = days.flatMap((d) => (d.lowestDepthUsd === null ? [] : [d.lowestDepthUsd]));
  const floors = history.attestations.filter((c) => claimSpan(c, from, to) !== null).map((c) => c.floorUsd);
  const { y, grid } = usdAxis(Math.max(0, ...lows, ...floors) * 1.05, {
    left: M.left,
    right: W - M.right,
    top: M.top,
    bottom: H - M.bottom,
  });
  const x = linearScale(from, to, M.left, W - M.right);
  const mid = (date: string) => x(dayStart(date) + DAY / 2);
  const every = Math.max(1, Math.ceil(days.length / 6));
  const xlabels = days.flatMap((d, i) =>
    i % every === 0 || i === days.length - 1
      ? [
          html`<text class="xlabel" x="${px(mid(d.date))}" y="${H - M.bottom + 16}" text-anchor="middle"
            >${d.date.slice(5)}</text
          >`,
        ]
      : [],
  );
  // The line joins consecutive days that have a low; a day without one breaks it.
  const segments: string[][] = [[]];
  for (const d of days) {
    if (d.lowestDepthUsd === null) segments.push([]);
    else segments[segments.length - 1].push(`${px(mid(d.date))},${px(y(d.lowestDepthUsd))}`);
  }
  const lines = segments
    .filter((points) => points.length > 1)
    .map((points) => html`<polyline points="${points.join(" ")}"></polyline>`);
  const band = (W - M.left - M.right) / days.length;
  const marks = days.map((d) =>
    d.lowestDepthUsd === null
      ? html`<rect
          class="nodata"
          x="${px(mid(d.date) - Math.max(1, band * 0.35))}"
          y="${H - M.bottom - 4}"
          width="${px(Math.max(2, band * 0.7))}"
          height="4"
          ><title>${d.date}: no data</title></rect
        >`
      : html`<circle
          class="${d.source === "feed-daily" ? "feed" : "obs"}"
          cx="${px(mid(d.date))}"
          cy="${px(y(d.lowestDepthUsd))}"
          r="${days.length > 120 ? 1.5 : 2.5}"
          ><title>
            ${d.date}: ${formatUsd(d.lowestDepthUsd)}${d.source === "feed-daily" ? " (feed daily)" : ""}
          </title></circle
        >`,
  );
  const claims = history.attestations.flatMap((claim) => {
    const span = claimSpan(claim, from, to);
    if (span === null) return [];
    const [x1, x2, yFloor] = [px(x(span.start)), px(x(span.end)), px(y(claim.floorUsd))];
    const beyond = claim.settlesAt > to ? ` → ${formatDay(claim.settlesAt).slice(5)}` : "";
    return [
      html`<g
        ><title>
          Claim issued ${formatDay(claim.issuedAt)}: floor ${formatUsd(claim.floorUsd)} until
          ${formatDay(claim.settlesAt)}</title
        ><line x1="${x1}" x2="${x2}" y1="${yFloor}" y2="${yFloor}"></line
        ><text x="${x2}" y="${px(y(claim.floorUsd) - 5)}" text-anchor="end"
          >floor ${formatUsdCompact(claim.floorUsd)}${beyond}</text
        ></g
      >`,
    ];
  });

  return html`<figure class="chart history">
    <svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="history-caption">
      ${grid}
      <line class="axis" x1="${M.left}" x2="${W - M.right}" y1="${H - M.bottom}" y2="${H - M.bottom}"></line>
      <g class="claims">${claims}</g>
      <g class="lows">${lines}</g>
      <g class="days">${marks}</g>
      ${xlabels}
    </svg>
    <figcaption id="history-caption">${historyCaption(history, symbol, from, to)}</figcaption>
  </figure>`;
}

/** The chart's text equivalent: what it spans, its lowest and highest day, and every claim drawn (or not in range). */
function historyCaption(history: GetPoolHistoryReturnType, symbol: string, from: number, to: number): Html {
  const { days } = history;
  const measured = days.filter((d) => d.lowestDepthUsd !== null);
  const feed = measured.filter((d) => d.source === "feed-daily").length;
  const byLow = [...measured].sort((a, b) => a.lowestDepthUsd! - b.lowestDepthUsd!);
  const extremes =
    byLow.length === 0
      ? "Nothing was stored for these days."
      : `Lowest ${formatUsd(byLow[0].lowestDepthUsd)} on ${byLow[0].date}; highest daily low ${formatUsd(
          byLow[byLow.length - 1].lowestDepthUsd,
        )} on ${byLow[byLow.length - 1].date}.`;
  const claims = history.attestations.map((claim) => {
    const span = claimSpan(claim, from, to);
    return html`<li>
      <span class="swatch floor" aria-hidden="true"></span>Claim issued ${formatDay(claim.issuedAt)}: ${claim.horizon}
      days at ${formatConfidence(claim.confidence)} confidence, floor ${formatUsd(claim.floorUsd)}, until
      ${formatDay(claim.settlesAt)}${span === null ? " (outside the days shown)" : ""}
    </li>`;
  });
  return html`<p>
      Daily lowest depth of ${symbol}, ${days[0].date} to ${days[days.length - 1].date} (${days.length} complete UTC
      days): ${measured.length} days with a low (${feed} of them the feed's end-of-day value),
      ${days.length - measured.length} without data. ${extremes} Evidence only: nothing here grades a claim.
    </p>
    <ul class="legend">
      <li><span class="swatch low" aria-hidden="true"></span>Daily low, observed on chain</li>
      <li>
        <span class="swatch feed" aria-hidden="true"></span>The feed's end-of-day value where nothing was observed
        (feed-daily: a snapshot, not a low)
      </li>
      <li><span class="swatch nodata" aria-hidden="true"></span>No data for the day (not zero)</li>
      ${claims.length === 0 ? html`<li>No claim was issued over these days.</li>` : claims}
    </ul>`;
}
