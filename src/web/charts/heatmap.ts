import { formatUsdCompact } from "../format";
import { html, type Html } from "../html";
import { axisTitles } from "./axisTitles";
import { dayLabels, isMinorLabel, px, yearSpan } from "./scale";

export type HeatmapParameters = {
  id: string;
  caption: string;
  /** Row labels (venues). */
  rows: readonly string[];
  /** Column labels (UTC days). */
  columns: readonly string[];
  /** `cells[row][column]`; `null` is "no data" (drawn crossed out), never zero. */
  cells: readonly (readonly (number | null)[])[];
};

const CELL_H = 30;
const LEFT = 130;
const TOP = 8;
const BOTTOM = 52;
const W = 640;

/**
 * The venue-by-day heatmap in SVG: one row per venue, one column per day, the cell's opacity proportional to its
 * volume (the largest cell of the map is opaque). "No data" cells are outlined and crossed, so they never read as 0.
 * The page lists the same cells in a table (its text equivalent).
 */
export function heatmap({ id, caption, rows, columns, cells }: HeatmapParameters): Html {
  const max = Math.max(0, ...cells.flat().map((v) => v ?? 0));
  const cellW = (W - LEFT - 8) / Math.max(1, columns.length);
  const height = TOP + rows.length * CELL_H + BOTTOM;
  const every = Math.max(1, Math.ceil(columns.length / 8));
  const ticked = columns.filter((_, c) => c % every === 0);
  const texts = dayLabels(ticked);
  const rowMarks = rows.map((row, r) => {
    const y = TOP + r * CELL_H;
    const label = html`<text class="ylabel" x="${LEFT - 6}" y="${px(y + CELL_H / 2 + 4)}" text-anchor="end"
      >${row}</text
    >`;
    const marks = columns.map((column, c) => {
      const x = LEFT + c * cellW;
      const value = cells[r]?.[c] ?? null;
      const box = { x: px(x + 1), y: px(y + 1), w: px(cellW - 2), h: px(CELL_H - 2) };
      if (value === null) {
        return html`<g
          ><title>${row}, ${column}: no data</title
          ><rect class="cell nodata" x="${box.x}" y="${box.y}" width="${box.w}" height="${box.h}"></rect
          ><line class="nodata" x1="${box.x}" y1="${box.y}" x2="${px(x + cellW - 1)}" y2="${px(y + CELL_H - 1)}"></line
        ></g>`;
      }
      const opacity = max > 0 ? 0.08 + 0.92 * (value / max) : 0.08;
      return html`<g
        ><title>${row}, ${column}: ${formatUsdCompact(value)}</title
        ><rect
          class="cell"
          x="${box.x}"
          y="${box.y}"
          width="${box.w}"
          height="${box.h}"
          fill-opacity="${px(opacity)}"
        ></rect
      ></g>`;
    });
    return html`${label}${marks}`;
  });
  const dayMarks = columns.map((column, c) =>
    c % every === 0
      ? html`<text
          class="xlabel${isMinorLabel(c / every, ticked.length) ? " minor" : ""}"
          x="${px(LEFT + c * cellW + cellW / 2)}"
          y="${TOP + rows.length * CELL_H + 20}"
          text-anchor="middle"
          >${texts[c / every]}</text
        >`
      : "",
  );
  return html`<figure class="chart">
    <svg viewBox="0 0 ${W} ${height}" role="img" aria-labelledby="${id}-caption">
      ${rowMarks} ${dayMarks}
      ${
        columns.length === 0
          ? ""
          : axisTitles({ left: LEFT, right: W - 8, top: TOP, bottom: TOP + rows.length * CELL_H }, height, {
              x: `UTC day, ${yearSpan(columns[0], columns[columns.length - 1])}`,
            })
      }
    </svg>
    <figcaption id="${id}-caption">${caption}</figcaption>
  </figure>`;
}
