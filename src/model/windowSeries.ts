import { HorizonInputError } from "../errors/horizon";
import { drawdownRatio, type DailyDepth } from "./horizon";

const DAY_MS = 86_400_000;
export const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
export const dayString = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/** A pool's daily lows laid out by day number: `low[i]` is the low of day `first + i`, NaN where not observed. */
export interface DaySeries {
  first: number;
  span: number;
  low: Float64Array;
  /** observedBefore[i] = observed days among 0 … i−1. */
  observedBefore: Int32Array;
}

/** The series of `daily` from its first day to the later of its last day and `lastDay` (a day number). */
export function daySeries(daily: readonly DailyDepth[], lastDay: number): DaySeries | null {
  const days = [...daily].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  if (days.length === 0) return null;
  const first = dayNumber(days[0].day);
  const span = Math.max(lastDay, dayNumber(days[days.length - 1].day)) - first + 1;
  const low = new Float64Array(span).fill(Number.NaN);
  for (const entry of days) {
    const i = dayNumber(entry.day) - first;
    if (!Number.isNaN(low[i]))
      throw new HorizonInputError({ field: "daily[].day", value: entry.day, expected: "each day once" });
    low[i] = entry.minDepthUsd;
  }
  const observedBefore = new Int32Array(span + 1);
  for (let i = 0; i < span; i++) observedBefore[i + 1] = observedBefore[i] + (Number.isNaN(low[i]) ? 0 : 1);
  return { first, span, low, observedBefore };
}

/**
 * Prefix sums, over the end day e, of the complete h-day windows that start at e−h (observed) with days e−h+1 … e all
 * observed: how many, how many held at `floor`, and their log drawdown ratios, added in day order as computeHorizon
 * adds them (so both give the same floats). The windows closed by day d are read at index d + 1.
 */
export interface CandidateSums {
  h: number;
  windows: Int32Array;
  held: Int32Array;
  sumLog: Float64Array;
  sumLogSquared: Float64Array;
  /** min[e] = the smallest observed low of e−h+1 … e. */
  min: Float64Array;
}

export function candidateSums(series: DaySeries, h: number, floor: number): CandidateSums {
  const { span, low, observedBefore } = series;
  const min = slidingMin(low, h);
  const windows = new Int32Array(span + 1);
  const held = new Int32Array(span + 1);
  const sumLog = new Float64Array(span + 1);
  const sumLogSquared = new Float64Array(span + 1);
  for (let e = 0; e < span; e++) {
    const s = e - h;
    windows[e + 1] = windows[e];
    held[e + 1] = held[e];
    sumLog[e + 1] = sumLog[e];
    sumLogSquared[e + 1] = sumLogSquared[e];
    if (s >= 0 && !Number.isNaN(low[s]) && observedBefore[e + 1] - observedBefore[s + 1] === h) {
      const log = Math.log(drawdownRatio(min[e], low[s]));
      windows[e + 1]++;
      if (min[e] >= floor * low[s]) held[e + 1]++;
      sumLog[e + 1] += log;
      sumLogSquared[e + 1] += log * log;
    }
  }
  return { h, windows, held, sumLog, sumLogSquared, min };
}

/** min[e] = the smallest observed value of e−h+1 … e (NaN skipped; +Infinity when none): a monotone deque, O(n). */
function slidingMin(values: Float64Array, h: number): Float64Array {
  const out = new Float64Array(values.length);
  const deque: number[] = [];
  let head = 0;
  for (let e = 0; e < values.length; e++) {
    if (!Number.isNaN(values[e])) {
      while (deque.length > head && values[deque[deque.length - 1]] >= values[e]) deque.pop();
      deque.push(e);
    }
    while (deque.length > head && deque[head] <= e - h) head++;
    out[e] = deque.length > head ? values[deque[head]] : Number.POSITIVE_INFINITY;
  }
  return out;
}
