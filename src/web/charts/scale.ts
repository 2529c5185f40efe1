/** Shared arithmetic of the SVG charts: linear scales and round tick values. */

/** Maps [d0, d1] linearly onto [r0, r1]; a zero-width domain maps to the middle of the range. */
export function linearScale(d0: number, d1: number, r0: number, r1: number): (value: number) => number {
  if (d1 === d0) return () => (r0 + r1) / 2;
  return (value) => r0 + ((value - d0) / (d1 - d0)) * (r1 - r0);
}

/** About `count` round tick values from 0 to at least `max` (1, 2 or 5 × a power of ten apart). */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const ticks: number[] = [];
  for (let t = 0; t <= max + step / 2; t += step) ticks.push(Number(t.toPrecision(12)));
  if (ticks[ticks.length - 1] < max) ticks.push(ticks[ticks.length - 1] + step);
  return ticks;
}

/** A number rounded for an SVG coordinate (two decimals keep the markup short). */
export function px(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/**
 * The x axis's day labels: `MM-DD`, with the year on the first label and wherever the year changes, so no date on a
 * chart is without its year.
 *
 * @param dates the labelled UTC days (`YYYY-MM-DD`), left to right.
 * @example
 * dayLabels(["2025-12-20", "2025-12-27", "2026-01-03"]); // ["2025-12-20", "12-27", "2026-01-03"]
 */
export function dayLabels(dates: readonly string[]): string[] {
  return dates.map((date, i) => (i === 0 || date.slice(0, 4) !== dates[i - 1].slice(0, 4) ? date : date.slice(5)));
}

/** The years a run of UTC days spans, for an axis title: `2026`, or `2025–2026`. */
export function yearSpan(first: string, last: string): string {
  return first.slice(0, 4) === last.slice(0, 4) ? first.slice(0, 4) : `${first.slice(0, 4)}–${last.slice(0, 4)}`;
}

/**
 * Which of `count` evenly spaced x labels a phone hides (class `minor`): every other one, never the first or the last,
 * so a narrow chart keeps about half its labels, the latest day's among them.
 */
export function isMinorLabel(index: number, count: number): boolean {
  return count > 4 && index % 2 === 1 && index !== count - 1;
}
