import { formatUsd, formatUsdCompact } from "../format";
import { html, type Html } from "../html";
import { axisTitles } from "./axisTitles";
import { crosshairData } from "./crosshair";
import { dayLabels, isMinorLabel, px, yearSpan } from "./scale";
import { usdAxis } from "./usdAxis";

export type BarChartParameters = {
  /** The chart's id (for `aria-labelledby`); unique on the page. */
  id: string;
  /** One line saying what the chart shows (the figure's caption). */
  caption: string;
  /** One bar per label (e.g. UTC days). */
  labels: readonly string[];
  /** `null` is "no data" and is drawn as a gap marker, never as a zero bar. */
  values: readonly (number | null)[];
  /** Labels of bars drawn hatched (e.g. days that are not complete). */
  partial?: ReadonlySet<string>;
  /** The value axis's title, in words with its unit (e.g. `Volume (USD)`). The labels are UTC days. */
  valueTitle: string;
  /** What a bar's value is, in words before the amount (the crosshair's readout): e.g. `volume`. */
  valueName?: string;
};

const W = 640;
const H = 280;
const M = { top: 34, right: 16, bottom: 58, left: 80 };

/**
 * A bar chart of USD values in SVG (`role="img"`, titled by its caption). Its text equivalent is the table the page
 * shows beside it: the chart only draws what that table lists.
 */
export function barChart({
  id,
  caption,
  labels,
  values,
  partial = new Set(),
  valueTitle,
  valueName = "value",
}: BarChartParameters): Html {
  const max = Math.max(0, ...values.map((v) => v ?? 0));
  const { y, grid } = usdAxis(max, { left: M.left, right: W - M.right, top: M.top, bottom: H - M.bottom });
  const band = (W - M.left - M.right) / Math.max(1, labels.length);
  const barWidth = Math.max(1, band * 0.7);
  const every = Math.max(1, Math.ceil(labels.length / 8));
  const ticked = labels.flatMap((label, i) => (i % every === 0 ? [label] : []));
  const texts = dayLabels(ticked);

  const bars = labels.map((label, i) => {
    const x = M.left + i * band + (band - barWidth) / 2;
    const value = values[i];
    const n = i / every;
    const tick =
      i % every === 0
        ? html`<text
            class="xlabel${isMinorLabel(n, ticked.length) ? " minor" : ""}"
            x="${px(x + barWidth / 2)}"
            y="${H - M.bottom + 18}"
            text-anchor="middle"
            >${texts[n]}</text
          >`
        : "";
    if (value === null) {
      return html`<g
        ><title>${label}: no data</title
        ><rect class="nodata" x="${px(x)}" y="${px(H - M.bottom - 4)}" width="${px(barWidth)}" height="4"></rect
        >${tick}</g
      >`;
    }
    const top = y(value);
    const cls = partial.has(label) ? "bar partial" : "bar";
    return html`<g
      ><title>${label}: ${formatUsdCompact(value)}</title
      ><rect
        class="${cls}"
        x="${px(x)}"
        y="${px(top)}"
        width="${px(barWidth)}"
        height="${px(H - M.bottom - top)}"
      ></rect
      >${tick}</g
    >`;
  });
  return html`<figure class="chart">
    <svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${id}-caption">
      ${grid}
      <line class="axis" x1="${M.left}" x2="${W - M.right}" y1="${H - M.bottom}" y2="${H - M.bottom}"></line>
      ${bars}
      ${
        labels.length === 0
          ? ""
          : axisTitles({ left: M.left, right: W - M.right, top: M.top, bottom: H - M.bottom }, H, {
              x: `UTC day, ${yearSpan(labels[0], labels[labels.length - 1])}`,
              y: valueTitle,
            })
      }
    </svg>
    ${crosshairData(
      { top: M.top, bottom: H - M.bottom },
      labels.map((label, i) => {
        const value = values[i];
        return {
          x: M.left + i * band + band / 2,
          y: value === null ? null : y(value),
          date: label,
          text:
            value === null
              ? "no data (not zero)"
              : `${valueName} ${formatUsd(value)}${partial.has(label) ? " (day not complete)" : ""}`,
        };
      }),
    )}
    <figcaption id="${id}-caption">${caption}</figcaption>
  </figure>`;
}
