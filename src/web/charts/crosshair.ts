import { html, jsonData, type Html } from "../html";

/**
 * One point a time-series chart's crosshair can stop at: its x in the SVG's units, the y of its marker (null when the
 * day has no data: the crosshair then marks the day without a dot), its UTC day (`YYYY-MM-DD`, with the year) and
 * what the chart shows for it, in words (the values, with units).
 */
export type CrosshairPoint = { x: number; y: number | null; date: string; text: string };

/** What the client script reads: the plot's top and bottom (the crosshair's line) and every point, left to right. */
export type CrosshairData = { top: number; bottom: number; points: [number, number | null, string, string][] };

/**
 * The data block of a chart's crosshair: a `<script type="application/json" data-crosshair>` inside the figure, read
 * by the client script (`client/crosshair.ts`), which adds a line, a marker, a readout and an `aria-live` region and
 * makes the chart focusable. Without JavaScript nothing of it shows: the SVG, its caption and the table stay the
 * chart's text.
 *
 * @param plot the plot's top and bottom in SVG units.
 * @param points every point, left to right.
 */
export function crosshairData(plot: { top: number; bottom: number }, points: readonly CrosshairPoint[]): Html {
  const round = (value: number) => Math.round(value * 100) / 100;
  const data: CrosshairData = {
    top: plot.top,
    bottom: plot.bottom,
    points: points.map((p) => [round(p.x), p.y === null ? null : round(p.y), p.date, p.text]),
  };
  return html`<script type="application/json" data-crosshair>
    ${jsonData(data)}
  </script>`;
}
