import { formatUsdCompact } from "../format";
import { html, type Html } from "../html";
import { linearScale, niceTicks, px } from "./scale";

/**
 * The USD value axis the charts share: round ticks from 0 to at least `max`, the scale onto the plot's height, and a
 * grid line per tick across the plot with its compact amount at the left.
 *
 * @param max the largest value to show.
 * @param plot the plot's edges in SVG units: `left`, `right`, `top`, `bottom`.
 * @returns `y` (USD → SVG y) and `grid` (one `<g class="tick">` per tick).
 */
export function usdAxis(
  max: number,
  plot: { left: number; right: number; top: number; bottom: number },
): { y: (value: number) => number; grid: Html[] } {
  const ticks = niceTicks(max);
  const y = linearScale(0, ticks[ticks.length - 1] || 1, plot.bottom, plot.top);
  const grid = ticks.map(
    (t) =>
      html`<g class="tick"
        ><line x1="${plot.left}" x2="${plot.right}" y1="${px(y(t))}" y2="${px(y(t))}"></line>
        <text x="${plot.left - 6}" y="${px(y(t) + 4)}" text-anchor="end">${formatUsdCompact(t)}</text></g
      >`,
  );
  return { y, grid };
}
