import type { ExpiryDate } from "../../read/getLiquidityMap";
import { countOf, formatUsdCompact } from "../format";
import { html, type Html } from "../html";
import { axisTitles } from "./axisTitles";
import { linearScale, niceTicks, px } from "./scale";

const W = 640;
const ROW = 30;
const M = { top: 8, right: 80, bottom: 52, left: 120 };

/**
 * The expiry calendar as horizontal bars: one row per date on which pools' last known incentive campaign ends, the
 * bar the fresh depth placed there (each pool counted once). A date whose depths are all stale has no fresh total and
 * is drawn as an outlined "no fresh depth" box. The page's table lists the same dates and pools.
 */
export function calendarChart(calendar: readonly ExpiryDate[], today: string): Html {
  const max = Math.max(0, ...calendar.map((d) => d.depthUsd ?? 0));
  const ticks = niceTicks(max, 3);
  const height = M.top + calendar.length * ROW + M.bottom;
  const x = linearScale(0, ticks[ticks.length - 1] || 1, M.left, W - M.right);
  const rows = calendar.map((date, i) => {
    const y = M.top + i * ROW;
    const past = date.date < today ? " past" : "";
    const label = html`<text class="ylabel${past}" x="${M.left - 6}" y="${px(y + ROW / 2 + 4)}" text-anchor="end"
      >${date.date}</text
    >`;
    if (date.depthUsd === null) {
      return html`<g
        ><title>${date.date}: no fresh depth</title>${label}<rect
          class="nodata"
          x="${M.left}"
          y="${px(y + 4)}"
          width="40"
          height="${ROW - 8}"
        ></rect>
        <text class="value" x="${M.left + 46}" y="${px(y + ROW / 2 + 4)}">stale only</text></g
      >`;
    }
    const end = x(date.depthUsd);
    return html`<g
      ><title>${date.date}: ${formatUsdCompact(date.depthUsd)} in ${countOf(date.pools.length, "pool")}</title>${label}
      <rect
        class="bar${past}"
        x="${M.left}"
        y="${px(y + 4)}"
        width="${px(Math.max(1, end - M.left))}"
        height="${ROW - 8}"
      ></rect>
      <text class="value" x="${px(end + 4)}" y="${px(y + ROW / 2 + 4)}">${formatUsdCompact(date.depthUsd)}</text></g
    >`;
  });
  return html`<figure class="chart">
    <svg viewBox="0 0 ${W} ${height}" role="img" aria-labelledby="calendar-caption">
      ${ticks.map((t) => html`<text class="xlabel" x="${px(x(t))}" y="${height - M.bottom + 20}" text-anchor="middle">${formatUsdCompact(t)}</text>`)}
      ${axisTitles({ left: M.left, right: W - M.right, top: M.top, bottom: height - M.bottom }, height, {
        x: "Fresh depth whose incentives end that day (USD)",
      })}
      ${rows}
    </svg>
    <figcaption id="calendar-caption">
      Fresh depth by the date its pools' last known incentive campaign ends (each pool counted once; dates before today,
      ${today}, are dimmed: those incentives have ended). The table below lists every date and pool.
    </figcaption>
  </figure>`;
}
