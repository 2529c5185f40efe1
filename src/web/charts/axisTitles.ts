import { html, type Html } from "../html";
import { px } from "./scale";

/**
 * A chart's axis titles, in words: the value axis's above its top left corner (read horizontally, also on a phone),
 * the x axis's centred under its labels.
 *
 * @param plot the plot's edges in SVG units; `height` is the SVG's.
 */
export function axisTitles(
  plot: { left: number; right: number; top: number; bottom: number },
  height: number,
  titles: { x: string; y?: string },
): Html {
  return html`${
      titles.y === undefined
        ? ""
        : html`<text class="axis-title" x="4" y="${px(plot.top - 12)}" text-anchor="start">${titles.y}</text>`
    }<text class="axis-title" x="${px((plot.left + plot.right) / 2)}" y="${px(height - 6)}" text-anchor="middle"
      >${titles.x}</text
    >`;
}
