import {
  calibrate,
  CELLS,
  emptyCounts,
  scoreBin,
  VOLATILITY_CLASSES,
  volatilityClass,
  type BinCounts,
  type Calibration,
} from "./calibration";
import {
  DEFAULT_CANDIDATES,
  ISSUING_MODEL,
  marginScore,
  type DailyDepth,
  type HorizonModelVersion,
  type WindowStats,
} from "./horizon";
import { recentVolatility } from "./volatility";
import { candidateSums, dayNumber, daySeries } from "./windowSeries";

/** The rule's parameters that a pooled calibration depends on (as the issuer uses them). */
export interface CalibrationRule {
  floor: number;
  candidates?: readonly number[];
  minWindows?: number;
  /**
   * The version the maps are for (default the issuing one, as `walkForward` and `computeHorizon` default): one with
   * `pooledFit: "logistic"` (v6, v7) also gets the logistic map.
   */
  model?: Pick<HorizonModelVersion, "pooledFit">;
}

/** One pool's observed daily lows. */
export interface CalibrationPool {
  pool: string;
  daily: readonly DailyDepth[];
}

/** One closed window of a pool, as the calibration counts it. */
interface PooledWindow {
  /** Index in the sorted candidates. */
  candidate: number;
  /**
   * The score bin of the pool's margin score as of the window's first day (from its windows closed by then); -1 when
   * the pool had fewer than the minimum windows then (the window counts only in the horizon's pooled hold rate).
   */
  bin: number;
  /** The cell (score bin × volatility class as of the window's first day); -1 when unscored. */
  cell: number;
  held: boolean;
  /** The day number of the window's last day: it counts for claims made on that day or later. */
  closes: number;
}

/** Adds one window to a horizon's counts: to its score bin, or to the unscored windows. */
function addWindow(counts: BinCounts, w: PooledWindow): void {
  if (w.bin < 0) {
    counts.unscoredWindows++;
    if (w.held) counts.unscoredHeld++;
    return;
  }
  counts.windows[w.bin]++;
  if (w.held) counts.held[w.bin]++;
  counts.cellWindows[w.cell]++;
  if (w.held) counts.cellHeld[w.cell]++;
}

/** Slots per candidate in the cumulative counts: one per cell, and the unscored windows. */
const SLOTS = CELLS + 1;

function fitOptions(rule: CalibrationRule): { logistic: boolean } {
  return { logistic: (rule.model ?? ISSUING_MODEL).pooledFit === "logistic" };
}

function candidatesOf(rule: CalibrationRule): number[] {
  return [...(rule.candidates ?? DEFAULT_CANDIDATES)].sort((a, b) => a - b);
}

/**
 * Every complete window of one pool that closed by `lastDay` (a day number), oldest close first: for each day s with a
 * positive low and each candidate h, the window s+1 … s+h (all observed), whether it held at `floor` × the low of s,
 * and, where the pool had at least `minWindows` windows closed by s, the bin of the margin score the pool showed as of
 * s (else -1: unscored). The score reads only windows closed by s; the outcome only s+1 … s+h.
 */
function poolWindows(daily: readonly DailyDepth[], rule: CalibrationRule, lastDay: number): PooledWindow[] {
  const series = daySeries(daily, lastDay);
  if (series === null) return [];
  const minWindows = rule.minWindows ?? 7;
  const out: PooledWindow[] = [];
  const volatility = recentVolatility(series.low);
  candidatesOf(rule).forEach((h, candidate) => {
    const sums = candidateSums(series, h, rule.floor);
    const { low, observedBefore, first } = series;
    for (let s = 0; s + h < series.span && first + s + h <= lastDay; s++) {
      const e = s + h;
      if (!(low[s] > 0) || observedBefore[e + 1] - observedBefore[s + 1] !== h) continue;
      const stats: WindowStats = {
        horizonDays: h,
        windows: sums.windows[s + 1],
        held: sums.held[s + 1],
        sumLogRatio: sums.sumLog[s + 1],
        sumLogRatioSquared: sums.sumLogSquared[s + 1],
      };
      const bin = stats.windows < minWindows ? -1 : scoreBin(marginScore(stats, rule.floor));
      out.push({
        candidate,
        bin,
        cell: bin < 0 ? -1 : bin * VOLATILITY_CLASSES + volatilityClass(volatility[s]),
        held: sums.min[e] >= rule.floor * low[s],
        closes: first + e,
      });
    }
  });
  return out.sort((a, b) => a.closes - b.closes);
}

/**
 * The pooled calibration, one per candidate horizon, as known on day `asOf` (`YYYY-MM-DD`): fitted on every pool's
 * windows that closed by `asOf`, except the windows of `excludePool` (the pool the claim is about: its own history
 * already gave its score). Issuance, the walk-forward evaluation and the benchmark all fit it this way.
 *
 * @param pools the tracked pools' observed daily lows (days after `asOf` are never read).
 * @param rule the floor, candidates and minimum windows of the rule.
 * @param asOf the claim's day.
 * @param excludePool the claim's pool.
 */
export function fitCalibration(
  pools: readonly CalibrationPool[],
  rule: CalibrationRule,
  asOf: string,
  excludePool?: string,
): Calibration[] {
  const candidates = candidatesOf(rule);
  const counts = candidates.map((h) => emptyCounts(h));
  const lastDay = dayNumber(asOf);
  for (const pool of pools) {
    if (pool.pool === excludePool) continue;
    const upTo = pool.daily.filter((entry) => entry.day <= asOf);
    for (const w of poolWindows(upTo, rule, lastDay)) addWindow(counts[w.candidate], w);
  }
  const options = fitOptions(rule);
  return counts.map((c) => calibrate(c, options));
}

/**
 * {@link fitCalibration} for every pool and every day at once, for the walk-forward evaluation: every pool's windows
 * are counted once, by the day they close; the calibration of pool p on day d is the count of all windows closed by d
 * less p's own, fitted. Gives the same maps as `fitCalibration(pools, rule, d, p)`.
 */
export class PooledCalibrations {
  private readonly candidates: number[];
  private readonly firstDay: number;
  /**
   * cumulative[(dayIndex × candidates + candidate) × SLOTS + slot]: windows closed by the day, and held; slot = the
   * cell (score bin × volatility class), or CELLS for the unscored windows.
   */
  private readonly cumulativeWindows: Int32Array;
  private readonly cumulativeHeld: Int32Array;
  private readonly days: number;
  private readonly windowsOf = new Map<string, PooledWindow[]>();
  private readonly options: { logistic: boolean };

  constructor(pools: readonly CalibrationPool[], rule: CalibrationRule, lastDay: string) {
    this.candidates = candidatesOf(rule);
    this.options = fitOptions(rule);
    const last = dayNumber(lastDay);
    let firstDay = last;
    for (const pool of pools) {
      const windows = poolWindows(pool.daily, rule, last);
      this.windowsOf.set(pool.pool, windows);
      for (const entry of pool.daily) firstDay = Math.min(firstDay, dayNumber(entry.day));
    }
    this.firstDay = firstDay;
    this.days = last - firstDay + 1;
    const stride = this.candidates.length * SLOTS;
    this.cumulativeWindows = new Int32Array(this.days * stride);
    this.cumulativeHeld = new Int32Array(this.days * stride);
    for (const windows of this.windowsOf.values()) {
      for (const w of windows) {
        const index = (w.closes - firstDay) * stride + w.candidate * SLOTS + (w.cell < 0 ? CELLS : w.cell);
        this.cumulativeWindows[index]++;
        if (w.held) this.cumulativeHeld[index]++;
      }
    }
    for (let d = 1; d < this.days; d++) {
      for (let k = 0; k < stride; k++) {
        this.cumulativeWindows[d * stride + k] += this.cumulativeWindows[(d - 1) * stride + k];
        this.cumulativeHeld[d * stride + k] += this.cumulativeHeld[(d - 1) * stride + k];
      }
    }
  }

  /**
   * The calibrations of `pool` by day: call with non-decreasing day numbers (the walk forward does); each call gives
   * the maps of that day, fitted on other pools' windows closed by it.
   */
  forPool(pool: string): (day: number) => Calibration[] {
    const own = this.windowsOf.get(pool) ?? [];
    const ownCounts = this.candidates.map((h) => emptyCounts(h));
    let next = 0;
    const stride = this.candidates.length * SLOTS;
    return (day) => {
      while (next < own.length && own[next].closes <= day) {
        const w = own[next++];
        addWindow(ownCounts[w.candidate], w);
      }
      const d = Math.min(day, this.firstDay + this.days - 1) - this.firstDay;
      return this.candidates.map((h, candidate) => {
        const counts = emptyCounts(h);
        if (d >= 0) {
          const offset = d * stride + candidate * SLOTS;
          const mine = ownCounts[candidate];
          for (let cell = 0; cell < CELLS; cell++) {
            const windows = this.cumulativeWindows[offset + cell] - mine.cellWindows[cell];
            const held = this.cumulativeHeld[offset + cell] - mine.cellHeld[cell];
            counts.cellWindows[cell] = windows;
            counts.cellHeld[cell] = held;
            const bin = Math.floor(cell / VOLATILITY_CLASSES);
            counts.windows[bin] += windows;
            counts.held[bin] += held;
          }
          counts.unscoredWindows = this.cumulativeWindows[offset + CELLS] - mine.unscoredWindows;
          counts.unscoredHeld = this.cumulativeHeld[offset + CELLS] - mine.unscoredHeld;
        }
        return calibrate(counts, this.options);
      });
    };
  }

  /** The pooled hold rate of all pools' windows closed by `day`, per candidate (null with none): climatology. */
  holdRates(day: number): Map<number, number | null> {
    const d = Math.min(day, this.firstDay + this.days - 1) - this.firstDay;
    const stride = this.candidates.length * SLOTS;
    return new Map(
      this.candidates.map((h, candidate) => {
        let windows = 0;
        let held = 0;
        if (d >= 0) {
          for (let cell = 0; cell < CELLS; cell++) {
            windows += this.cumulativeWindows[d * stride + candidate * SLOTS + cell];
            held += this.cumulativeHeld[d * stride + candidate * SLOTS + cell];
          }
        }
        return [h, windows > 0 ? held / windows : null];
      }),
    );
  }
}
