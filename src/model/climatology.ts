import { DEFAULT_CANDIDATES, type DailyDepth } from "./horizon";
import { candidateSums, dayNumber, daySeries } from "./windowSeries";

/**
 * The climatology's forecast for a horizon on a day when no window of that horizon had closed in any pool. It is not
 * reached by a claim of the evaluation: a claim needs at least `minWindows` windows of its horizon closed in its own
 * pool by its day, and those are among the pooled ones.
 */
export const CLIMATOLOGY_PRIOR = 0.5;

/** The pools and rule the climatology reads: every pool's observed daily lows, the floor and the candidates. */
export interface ClimatologyInput {
  pools: readonly { pool: string; daily: readonly DailyDepth[] }[];
  floor: number;
  candidates?: readonly number[];
}

/**
 * The baseline of the model evaluation (docs/model.md#the-evaluation-walk-forward), a forecast knowable on the claim's
 * day: for a claim made as of day d for h days, the pooled hold rate of every pool's h-day windows (the model's
 * windows: a start day s with an observed low, s+1 … s+h all observed, held when each low is at or above floor × the
 * low of s) that closed by d (s + h ≤ d). No window closing after d is read. Windows of the claim's own pool count
 * too. {@link CLIMATOLOGY_PRIOR} where none had closed. The service's evaluation, `attest model evaluate` and
 * `npm run bench:families` all use it.
 *
 * @param input the pools' observed lows, the floor and the candidate horizons.
 * @param lastDay the last complete day (`YYYY-MM-DD`): windows closing after it are never counted.
 * @returns the forecast of a claim as of `asOf` (`YYYY-MM-DD`) for `horizon` days (a candidate).
 * @example
 * const forecast = climatology({ pools, floor: 0.5 }, "2026-03-01");
 * forecast("2026-02-01", 14); // the share of all pools' 14-day windows closed by 2026-02-01 that held
 */
export function climatology(input: ClimatologyInput, lastDay: string): (asOf: string, horizon: number) => number {
  const candidates = [...(input.candidates ?? DEFAULT_CANDIDATES)].sort((a, b) => a - b);
  const last = dayNumber(lastDay);
  let firstDay = Number.POSITIVE_INFINITY;
  for (const pool of input.pools) for (const entry of pool.daily) firstDay = Math.min(firstDay, dayNumber(entry.day));
  if (!Number.isFinite(firstDay) || firstDay > last) return () => CLIMATOLOGY_PRIOR;
  const days = last - firstDay + 1;
  // closedBy[h][i]: windows (and held ones) of horizon h closed by day firstDay + i, over all pools.
  const windows = new Map(candidates.map((h) => [h, new Float64Array(days)]));
  const held = new Map(candidates.map((h) => [h, new Float64Array(days)]));
  for (const pool of input.pools) {
    const series = daySeries(
      pool.daily.filter((entry) => entry.day <= lastDay),
      last,
    );
    if (series === null) continue;
    const offset = series.first - firstDay;
    for (const h of candidates) {
      const sums = candidateSums(series, h, input.floor);
      const w = windows.get(h)!;
      const k = held.get(h)!;
      // sums.windows[e + 1] − sums.windows[e]: the window closing on day e of the pool's series (0 or 1).
      for (let e = 0; e < series.span && series.first + e <= last; e++) {
        w[offset + e] += sums.windows[e + 1] - sums.windows[e];
        k[offset + e] += sums.held[e + 1] - sums.held[e];
      }
    }
  }
  for (const h of candidates) {
    const w = windows.get(h)!;
    const k = held.get(h)!;
    for (let i = 1; i < days; i++) {
      w[i] += w[i - 1];
      k[i] += k[i - 1];
    }
  }
  return (asOf, horizon) => {
    const w = windows.get(horizon);
    const k = held.get(horizon);
    const i = Math.min(dayNumber(asOf), last) - firstDay;
    if (w === undefined || k === undefined || i < 0 || w[i] === 0) return CLIMATOLOGY_PRIOR;
    return k[i] / w[i];
  };
}
