import type { CalibrationBucket } from "../../model/evaluateModel";
import { html, type Html } from "../html";
import { linearScale, px } from "./scale";

const W = 420;
const H = 420;
const M = { top: 16, right: 16, bottom: 44, left: 52 };

/**
 * A reliability diagram in SVG (`role="img"`): each calibration bucket's mean confidence (x) against its hold rate
 * (y), as a dot whose area follows the bucket's size, labelled with it; the diagonal is perfect calibration. Its text
 * equivalent is the bucket table the page shows beside it.
 */
export function reliabilityChart({
  id,
  caption,
  buckets,
}: {
  id: string;
  caption: string;
  buckets: readonly CalibrationBucket[];
}): Html {
  const x = linearScale(0, 1, M.left, W - M.right);
  const y = linearScale(0, 1, H - M.bottom, M.top);
  const largest = Math.max(1, ...buckets.map((b) => b.n));
  const ticks = [0, 0.2, 0.4, 0.6, 0.8, 1];
  const grid = ticks.map(
    (t) =>
      html`<g class="tick"
        ><line x1="${M.left}" x2="${W - M.right}" y1="${px(y(t))}" y2="${px(y(t))}"></line
        ><text x="${M.left - 6}" y="${px(y(t) + 4)}" text-anchor="end">${t.toFixed(1)}</text
        ><text class="xlabel" x="${px(x(t))}" y="${H - M.bottom + 16}" text-anchor="middle">${t.toFixed(1)}</text></g
      >`,
  );
  // A label right of its dot, or left of it near the right edge, so it stays inside the frame; a label that would
  // overlap one already placed on that side moves down a line (buckets near each other, e.g. 0.82/0.84 and 0.87/0.81).
  const placed: { left: boolean; y: number }[] = [];
  const label = (cx: number, cy: number, r: number, text: string) => {
    const left = cx > 0.8;
    let ly = y(cy) + 4;
    while (placed.some((p) => p.left === left && Math.abs(p.y - ly) < 12)) ly += 12;
    placed.push({ left, y: ly });
    return left
      ? html`<text x="${px(x(cx) - r - 3)}" y="${px(ly)}" text-anchor="end">${text}</text>`
      : html`<text x="${px(x(cx) + r + 3)}" y="${px(ly)}">${text}</text>`;
  };
  const dots = buckets.map((bucket) => {
    const r = 3 + 11 * Math.sqrt(bucket.n / largest);
    return html`<g class="bucket"
      ><title>
        confidence ${bucket.from.toFixed(2)}–${bucket.to.toFixed(2)}: ${bucket.n} claims, mean confidence
        ${bucket.meanConfidence.toFixed(3)}, held ${(bucket.holdRate * 100).toFixed(1)} %</title
      ><circle cx="${px(x(bucket.meanConfidence))}" cy="${px(y(bucket.holdRate))}" r="${px(r)}"></circle
      >${label(bucket.meanConfidence, bucket.holdRate, r, `n=${bucket.n}`)}</g
    >`;
  });
  return html`<figure class="chart reliability">
    <svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${id}-caption" preserveAspectRatio="xMidYMid meet">
      ${grid}
      <line class="diagonal" x1="${px(x(0))}" y1="${px(y(0))}" x2="${px(x(1))}" y2="${px(y(1))}"></line>
      ${dots}
      <text class="axis-label" x="${px((M.left + W - M.right) / 2)}" y="${H - 6}" text-anchor="middle">confidence</text>
      <text
        class="axis-label"
        transform="rotate(-90)"
        x="${px(-(M.top + H - M.bottom) / 2)}"
        y="14"
        text-anchor="middle"
      >
        share that held
      </text>
    </svg>
    <figcaption id="${id}-caption">${caption}</figcaption>
  </figure>`;
}
