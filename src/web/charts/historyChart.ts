import type { GetPoolClaimsReturnType, PoolClaim } from "../../read/getPoolClaims";
import type { GetPoolHistoryReturnType, PoolHistoryAttestation } from "../../read/getPoolHistory";
import { dayStart } from "../../read/internal/utcDays";
import { formatConfidence, formatDay, formatUsd, formatUsdCompact } from "../format";
import { html, type Html } from "../html";
import { axisTitles } from "./axisTitles";
import { crosshairData } from "./crosshair";
import { dayLabels, isMinorLabel, linearScale, px, yearSpan } from "./scale";
import { usdAxis } from "./usdAxis";

const W = 640;
const H = 300;
/** Room for the value axis's title above the plot, the day labels and the x axis's title under it. */
const M = { top: 34, right: 20, bottom: 58, left: 80 };
const DAY = 86_400;
/** Above this many claims in range, only the newest floor is labelled on the chart (the caption lists them all). */
const LABELLED_CLAIMS = 4;
/** Two floors' labels closer than this (SVG units, about a line of a phone's text) would overlap: only the newer is kept. */
const LABEL_GAP = 26;

/**
 * How a claim drawn on the chart was graded: its outcome on the track record (`getPoolClaims`), or `other` for an
 * attestation the record's page does not list (a later attestation of the same UTC day, which is not graded, or one
 * older than the page).
 */
export type ClaimMark = PoolClaim["outcome"] | "other";

/** What each mark means, in the legend's words. */
export const CLAIM_MARKS: Record<ClaimMark, string> = {
  held: "Floor of a claim that held (every window day observed at or above it)",
  failed: "Floor of a claim that failed (an observed daily low below it)",
  void: "Floor of a void claim (a window day not observed, none below)",
  pending: "Floor of a pending claim (its window has not closed)",
  other:
    "Floor of an attestation the track record below does not list (a later one of the same UTC day, or older than its first page)",
};

/** Each claim's grade on the track record, by its issuance time. */
export function claimMarks(record: GetPoolClaimsReturnType): (claim: PoolHistoryAttestation) => ClaimMark {
  const byIssuedAt = new Map(record.claims.map((claim) => [claim.issuedAt, claim.outcome]));
  return (claim) => byIssuedAt.get(claim.issuedAt) ?? "other";
}

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
 * dashed mark on the axis, never a zero), and each claim's floor drawn as a segment over the days its window covers,
 * coloured by its grade on the track record (`record`, the reader of `GET /api/v1/pool/{pool}/claims`), a failed
 * claim's first failing day marked with a cross at its low. The figcaption is the text equivalent (range, lowest and
 * highest day, every claim with its grade, the legend); the tables the page shows after it list every day and claim.
 */
export function historyChart(history: GetPoolHistoryReturnType, symbol: string, record: GetPoolClaimsReturnType): Html {
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
  const xlabels = dayAxisLabels(days, mid);
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
  const markOf = claimMarks(record);
  const inRange = history.attestations.filter((claim) => claimSpan(claim, from, to) !== null);
  // Labels from the newest back; one that would sit on a label already placed (floors close together) is left out:
  // the caption names every claim.
  const withLabel = new Set<PoolHistoryAttestation>();
  for (const claim of (inRange.length <= LABELLED_CLAIMS ? inRange : inRange.slice(-1)).slice().reverse()) {
    if ([...withLabel].every((other) => Math.abs(y(other.floorUsd) - y(claim.floorUsd)) >= LABEL_GAP)) {
      withLabel.add(claim);
    }
  }
  const claims = inRange.map((claim) => {
    const span = claimSpan(claim, from, to)!;
    const mark = markOf(claim);
    const [x1, x2, yFloor] = [px(x(span.start)), px(x(span.end)), px(y(claim.floorUsd))];
    const beyond = claim.settlesAt > to ? ` → ${formatDay(claim.settlesAt)}` : "";
    return html`<g class="claim ${mark}" data-outcome="${mark}" data-issued-at="${claim.issuedAt}"
      ><title>
        Claim issued ${formatDay(claim.issuedAt)}: floor ${formatUsd(claim.floorUsd)} until
        ${formatDay(claim.settlesAt)}, ${markWord(mark)}</title
      ><line x1="${x1}" x2="${x2}" y1="${yFloor}" y2="${yFloor}"></line>${
        withLabel.has(claim)
          ? html`<text
              class="${claim === inRange[inRange.length - 1] ? "" : "minor"}"
              x="${x2}"
              y="${px(y(claim.floorUsd) - 5)}"
              text-anchor="end"
              >floor ${formatUsdCompact(claim.floorUsd)}${beyond}</text
            >`
          : ""
      }</g
    >`;
  });
  const failures = failureMarks(record, days, mid, y);

  return html`<figure class="chart history">
    <svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="history-caption">
      ${grid}
      <line class="axis" x1="${M.left}" x2="${W - M.right}" y1="${H - M.bottom}" y2="${H - M.bottom}"></line>
      <g class="claims">${claims}</g>
      <g class="lows">${lines}</g>
      <g class="days">${marks}</g>
      <g class="fails">${failures}</g>
      ${xlabels}
      ${axisTitles({ left: M.left, right: W - M.right, top: M.top, bottom: H - M.bottom }, H, {
        x: `UTC day, ${yearSpan(days[0].date, days[days.length - 1].date)}`,
        y: "Lowest depth of the day (USD)",
      })}
    </svg>
    ${crosshairData(
      { top: M.top, bottom: H - M.bottom },
      days.map((d) => ({
        x: mid(d.date),
        y: d.lowestDepthUsd === null ? null : y(d.lowestDepthUsd),
        date: d.date,
        text: dayReadout(history, d, markOf),
      })),
    )}
    <figcaption id="history-caption">${historyCaption(history, symbol, from, to, markOf)}</figcaption>
  </figure>`;
}

/** Each failed claim's first failing day in the chart's range: a cross at that day's low (the low that fell below its floor). */
function failureMarks(
  record: GetPoolClaimsReturnType,
  days: GetPoolHistoryReturnType["days"],
  mid: (date: string) => number,
  y: (usd: number) => number,
): Html[] {
  const firstDay = days[0].date;
  const lastDay = days[days.length - 1].date;
  return record.claims.flatMap((claim) => {
    const date = claim.lowestDepthDate;
    if (claim.outcome !== "failed" || date === null || claim.lowestDepthUsd === null) return [];
    if (date < firstDay || date > lastDay) return [];
    const [cx, cy, r] = [mid(date), y(claim.lowestDepthUsd), 4];
    return [
      html`<g class="fail" data-issued-at="${claim.issuedAt}"
        ><title>
          First failing day of the claim issued ${formatDay(claim.issuedAt)}: ${date}, low
          ${formatUsd(claim.lowestDepthUsd)} below its floor ${formatUsd(claim.floorUsd)}</title
        ><path
          d="M${px(cx - r)},${px(cy - r)}L${px(cx + r)},${px(cy + r)}M${px(cx - r)},${px(cy + r)}L${px(cx + r)},${px(cy - r)}"
        ></path
      ></g>`,
    ];
  });
}

/** The chart's text equivalent: what it spans, its lowest and highest day, and every claim drawn (or not in range). */
function historyCaption(
  history: GetPoolHistoryReturnType,
  symbol: string,
  from: number,
  to: number,
  markOf: (claim: PoolHistoryAttestation) => ClaimMark,
): Html {
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
    const mark = markOf(claim);
    return html`<li>
      <span class="swatch floor ${mark}" aria-hidden="true"></span>Claim issued ${formatDay(claim.issuedAt)}:
      ${claim.horizon} days at ${formatConfidence(claim.confidence)} confidence, floor ${formatUsd(claim.floorUsd)},
      until ${formatDay(claim.settlesAt)}${span === null ? " (outside the days shown)" : ""}: ${markWord(mark)}
    </li>`;
  });
  const drawn = new Set(history.attestations.filter((c) => claimSpan(c, from, to) !== null).map(markOf));
  const outcomes = (Object.keys(CLAIM_MARKS) as ClaimMark[])
    .filter((mark) => drawn.has(mark))
    .map((mark) => html`<li><span class="swatch floor ${mark}" aria-hidden="true"></span>${CLAIM_MARKS[mark]}</li>`);
  return html`<p>
      Daily lowest depth of ${symbol}, ${days[0].date} to ${days[days.length - 1].date} (${days.length} complete UTC
      days): ${measured.length} days with a low (${feed} of them the feed's end-of-day value),
      ${days.length - measured.length} without data. ${extremes} Each floor is coloured by its claim's grade on the
      track record below.
    </p>
    <ul class="legend">
      <li><span class="swatch low" aria-hidden="true"></span>Daily low, observed on chain</li>
      <li>
        <span class="swatch feed" aria-hidden="true"></span>The feed's end-of-day value where nothing was observed
        (feed-daily: a snapshot, not a low)
      </li>
      <li><span class="swatch nodata" aria-hidden="true"></span>No data for the day (not zero)</li>
      ${outcomes}
      ${drawn.has("failed") ? html`<li><span class="swatch fail" aria-hidden="true"></span>A failed claim's first failing day, at its low</li>` : ""}
      ${claims.length === 0 ? html`<li>No claim was issued over these days.</li>` : claims}
    </ul>`;
}

/** A day's values in words, as the crosshair reads them out: the day's low and every floor covering the day. */
function dayReadout(
  history: GetPoolHistoryReturnType,
  day: GetPoolHistoryReturnType["days"][number],
  markOf: (claim: PoolHistoryAttestation) => ClaimMark,
): string {
  const low =
    day.lowestDepthUsd === null
      ? "no data (not zero)"
      : `lowest depth ${formatUsd(day.lowestDepthUsd)}${day.source === "feed-daily" ? " (the feed's end-of-day value)" : ""}`;
  const floors = claimsOnDay(history, day.date).map(
    (claim) =>
      `floor ${formatUsd(claim.floorUsd)} (claim issued ${formatDay(claim.issuedAt)}, ${markWord(markOf(claim))})`,
  );
  return [low, ...floors].join("; ");
}

/** A mark in words, as the caption's claim list ends each claim. */
function markWord(mark: ClaimMark): string {
  return mark === "other" ? "not on the track record shown" : mark;
}

/**
 * The x axis's day labels: about six, the latest day's last (right-aligned at the plot's edge), with the year on the
 * first and wherever it changes; every other one is `minor` (a phone leaves it out).
 */
function dayAxisLabels(days: GetPoolHistoryReturnType["days"], mid: (date: string) => number): Html[] {
  const every = Math.max(1, Math.ceil(days.length / 6));
  const labelled = days.filter((_, i) => i % every === 0 || i === days.length - 1);
  // The last label is the latest day's; one that would sit on top of it gives way.
  if (labelled.length > 2 && days.length - 1 - days.indexOf(labelled[labelled.length - 2]) < every / 2) {
    labelled.splice(labelled.length - 2, 1);
  }
  const texts = dayLabels(labelled.map((d) => d.date));
  return labelled.map(
    (d, i) =>
      html`<text
        class="xlabel${isMinorLabel(i, labelled.length) ? " minor" : ""}"
        x="${i === labelled.length - 1 ? W - M.right : px(mid(d.date))}"
        y="${H - M.bottom + 18}"
        text-anchor="${i === labelled.length - 1 ? "end" : "middle"}"
        >${texts[i]}</text
      >`,
  );
}
