import { HorizonInputError } from "../errors/horizon";
import type { Calibration } from "./calibration";
import { ISSUING_MODEL } from "./pooledVersions";
import { MIN_RATIO, type HorizonModelVersion, type WindowStats } from "./versions";
import { recentVolatility } from "./volatility";

// The model versions live in ./versions (v1–v3) and ./pooledVersions (v4–v6, the issuing one); this module is where
// callers find them beside computeHorizon.
export { normalCdf } from "./normal";
export {
  MARGIN_MIN_SPREAD,
  MIN_RATIO,
  MODEL_V1,
  MODEL_V2,
  MODEL_V3,
  marginProbability,
  marginScore,
  type HorizonModelVersion,
  type WindowStats,
} from "./versions";
export {
  HORIZON_MODEL_ID,
  HORIZON_MODELS,
  ISSUING_MODEL,
  MODEL_V4,
  MODEL_V5,
  MODEL_V6,
  MODEL_V7,
} from "./pooledVersions";

/** Default candidate horizons, in days (docs/data.md#the-horizon-model). */
export const DEFAULT_CANDIDATES = [7, 14, 30, 60, 90, 180] as const;

/** One day of a pool's history: the lowest depth observed on that UTC day. */
export interface DailyDepth {
  /** UTC day `YYYY-MM-DD`. */
  day: string;
  minDepthUsd: number;
}

/** Parameters of {@link computeHorizon}. */
export interface ComputeHorizonParameters {
  /** The pool's daily-lowest-depth history, any order; days may be missing. */
  daily: readonly DailyDepth[];
  /** Depth at issuance (USD): the claim is depth ≥ floor × depthNow. Must be > 0 to attest. */
  depthNow: number;
  /** Fraction of the reference depth the claim promises to keep, in (0, 1]. Default 0.5. */
  floor?: number;
  /** Smallest share of past windows in which the claim must have held, in (0, 1]. Default 0.8. */
  target?: number;
  /** Candidate horizons in days (positive integers). Default 7, 14, 30, 60, 90, 180. */
  candidates?: readonly number[];
  /** A horizon is judged only on at least this many complete past windows. Default 7. */
  minWindows?: number;
  /** Known end times (Unix s) of incentive campaigns on the pool: the horizon may not reach past the earliest future one. */
  campaignEnds?: readonly number[];
  /** Current time (Unix s); needed with `campaignEnds`. */
  now?: number;
  /** The model version. Default {@link ISSUING_MODEL}. */
  model?: HorizonModelVersion;
  /** A pooled model's calibration, one per horizon (`fitCalibration` in ./pooledCalibration); others ignore it. */
  calibration?: readonly Calibration[];
}

/** How one candidate horizon scored. */
export interface HorizonCandidateResult {
  horizonDays: number;
  /** Complete windows in the history (every day of the window observed). */
  windows: number;
  /** Windows in which the claim held. */
  held: number;
  /** The model's confidence in hundredths, rounded down (v1: floor(held × 100 / windows)); null without enough windows. */
  shareHundredths: number | null;
  /** Why this candidate cannot be published, if it cannot. */
  excludedBy?: "too-few-windows" | "below-target" | "campaign-end";
}

export interface ComputeHorizonReturnType {
  /** The published horizon in days, or null: no attestation (see `reason`). */
  horizonDays: number | null;
  /** Confidence in hundredths (0–100), the chosen horizon's share rounded down; null with no horizon. */
  confidence: number | null;
  /** Why no horizon was published, or why a shorter one was (campaign end). */
  reason?: string;
  candidates: HorizonCandidateResult[];
}
export type ComputeHorizonErrorType = HorizonInputError;

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

function dayNumber(day: string): number {
  const ms = Date.parse(`${day}T00:00:00Z`);
  if (!DAY_RE.test(day) || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day) {
    throw new HorizonInputError({ field: "daily[].day", value: day, expected: "a UTC day YYYY-MM-DD" });
  }
  return ms / 86_400_000;
}

function fraction(field: string, value: number): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || value > 1) {
    throw new HorizonInputError({ field, value, expected: "a number in (0, 1]" });
  }
  return value;
}

/**
 * The horizon model (docs/data.md#the-horizon-model). The claim: "the pool's depth stays at or above `floor × depth at
 * issuance` for `horizonDays` days". For each candidate horizon h, every past day d with a complete window (days d+1 …
 * d+h all observed) is a window; the claim held in it when each of those days' lowest depth is ≥ floor × the lowest
 * depth of day d (the reference, standing in for the depth at issuance). The model version (`model`, default
 * {@link ISSUING_MODEL}) turns the windows into a confidence: the longest candidate with at least `minWindows` windows
 * whose confidence meets `target` is published, with that confidence rounded DOWN to hundredths. A known campaign end
 * caps the horizon at the whole days left until it. Windows are counted in day order, so the result is deterministic
 * (v1 and v2 in integers; v3's sums in the same order as the walk-forward evaluation's).
 *
 * @param {@link ComputeHorizonParameters}
 * @returns {@link ComputeHorizonReturnType}: a horizon and confidence, or nulls and a reason.
 * @example
 * import { computeHorizon } from "./model/horizon";
 * const { horizonDays, confidence, reason } = computeHorizon({ daily, depthNow: 1_000_000 });
 */
export function computeHorizon(parameters: ComputeHorizonParameters): ComputeHorizonReturnType {
  const floor = fraction("floor", parameters.floor ?? 0.5);
  const target = fraction("target", parameters.target ?? 0.8);
  const minWindows = parameters.minWindows ?? 7;
  const candidates = [...(parameters.candidates ?? DEFAULT_CANDIDATES)];
  if (!Number.isSafeInteger(minWindows) || minWindows < 1) {
    throw new HorizonInputError({ field: "minWindows", value: minWindows, expected: "a positive integer" });
  }
  if (candidates.length === 0 || candidates.some((h) => !Number.isSafeInteger(h) || h < 1)) {
    throw new HorizonInputError({ field: "candidates", value: candidates, expected: "positive integer days" });
  }
  candidates.sort((a, b) => a - b);
  // The target is compared as an integer ratio (millionths), avoiding binary-float edges: 0.8 × 15 is not 12 in floats.
  const targetMillionths = Math.round(target * 1e6);
  const model = parameters.model ?? ISSUING_MODEL;

  const byDay = new Map<number, number>();
  for (const entry of parameters.daily) {
    const n = dayNumber(entry.day);
    if (typeof entry.minDepthUsd !== "number" || !Number.isFinite(entry.minDepthUsd) || entry.minDepthUsd < 0) {
      throw new HorizonInputError({
        field: "daily[].minDepthUsd",
        value: entry.minDepthUsd,
        expected: "a finite number ≥ 0",
      });
    }
    if (byDay.has(n))
      throw new HorizonInputError({ field: "daily[].day", value: entry.day, expected: "each day once" });
    byDay.set(n, entry.minDepthUsd);
  }

  const starts = [...byDay.keys()].sort((a, b) => a - b);
  const volatility = lastVolatility(byDay, starts);
  const results: HorizonCandidateResult[] = candidates.map((h) => {
    const stats = historyWindows(byDay, starts, h, floor, volatility);
    const { windows, held } = stats;
    const calibration = parameters.calibration;
    const shareHundredths = windows >= minWindows ? model.confidenceHundredths(stats, floor, calibration) : null;
    const result: HorizonCandidateResult = { horizonDays: h, windows, held, shareHundredths };
    if (shareHundredths === null) result.excludedBy = "too-few-windows";
    else if (!model.meetsTarget(stats, floor, targetMillionths, calibration)) result.excludedBy = "below-target";
    return result;
  });

  let capDays: number | null = null;
  if (parameters.campaignEnds !== undefined && parameters.campaignEnds.length > 0) {
    const now = parameters.now;
    if (now === undefined || !Number.isFinite(now)) {
      throw new HorizonInputError({ field: "now", value: now, expected: "Unix seconds, required with campaignEnds" });
    }
    capDays = campaignCapDays(parameters.campaignEnds, now);
    if (capDays !== null) {
      for (const r of results) if (r.excludedBy === undefined && r.horizonDays > capDays) r.excludedBy = "campaign-end";
    }
  }

  const depthNow = parameters.depthNow;
  if (typeof depthNow !== "number" || !Number.isFinite(depthNow) || depthNow <= 0) {
    return { horizonDays: null, confidence: null, reason: "no current depth to anchor the claim", candidates: results };
  }

  const eligible = results.filter((r) => r.excludedBy === undefined);
  if (eligible.length > 0) {
    const best = eligible[eligible.length - 1];
    const longestOnHistory = results.filter((r) => r.excludedBy === undefined || r.excludedBy === "campaign-end");
    const capped = longestOnHistory[longestOnHistory.length - 1].horizonDays > best.horizonDays;
    return {
      horizonDays: best.horizonDays,
      confidence: best.shareHundredths,
      ...(capped ? { reason: `shortened: a known incentive campaign ends in ${capDays} days` } : {}),
      candidates: results,
    };
  }

  const shortest = candidates[0];
  if (results.every((r) => r.excludedBy === "too-few-windows")) {
    return {
      horizonDays: null,
      confidence: null,
      reason:
        `insufficient history: ${plural(byDay.size, "day")} recorded, ${plural(results[0].windows, `complete ${shortest}-day window`)}; ` +
        `need at least ${minWindows} (about ${shortest + minWindows} consecutive days)`,
      candidates: results,
    };
  }
  if (results.some((r) => r.excludedBy === "campaign-end")) {
    return {
      horizonDays: null,
      confidence: null,
      reason: `a known incentive campaign ends in ${capDays} days, before the shortest horizon that met the target`,
      candidates: results,
    };
  }
  const first = results.find((r) => r.shareHundredths !== null)!;
  return {
    horizonDays: null,
    confidence: null,
    reason:
      `the claim held in ${first.held} of ${first.windows} past ${first.horizonDays}-day windows; ` +
      `confidence ${first.shareHundredths}% (${model.id}), below the ${targetMillionths / 1e4}% target`,
    candidates: results,
  };
}

/**
 * The campaign cap of a claim made at `now`: the whole days left until the earliest known campaign end after `now`
 * (a candidate horizon longer than that is excluded), or null when no end is after `now`. Issuance
 * ({@link computeHorizon}) and the walk-forward evaluation apply it the same way.
 *
 * @param campaignEnds end times (Unix s), any order.
 * @param now the claim's time (Unix s).
 * @example
 * campaignCapDays([1_000_000], 1_000_000 - 10 * 86_400 - 5); // 10
 */
export function campaignCapDays(campaignEnds: readonly number[], now: number): number | null {
  let earliest = Number.POSITIVE_INFINITY;
  for (const end of campaignEnds) if (end > now && end < earliest) earliest = end;
  return earliest === Number.POSITIVE_INFINITY ? null : Math.floor((earliest - now) / 86_400);
}

/** A window's lowest day over its reference, clamped at {@link MIN_RATIO}; 1 when the reference is 0. */
export function drawdownRatio(lowest: number, reference: number): number {
  return reference > 0 ? Math.max(MIN_RATIO, lowest / reference) : 1;
}

/** Adds one complete window to `stats`: whether it held and its drawdown ratio. */
export function countWindow(stats: WindowStats, held: boolean, ratio: number): void {
  const log = Math.log(ratio);
  stats.windows++;
  if (held) stats.held++;
  stats.sumLogRatio += log;
  stats.sumLogRatioSquared += log * log;
}

/** Every complete h-day window of the history, counted in day order (as the walk forward's prefix sums add them). */
function historyWindows(
  byDay: ReadonlyMap<number, number>,
  sortedDays: readonly number[],
  h: number,
  floor: number,
  volatility: number,
): WindowStats {
  const stats: WindowStats = { horizonDays: h, windows: 0, held: 0, sumLogRatio: 0, sumLogRatioSquared: 0, volatility };
  for (const start of sortedDays) {
    const reference = byDay.get(start)!;
    let lowest = Number.POSITIVE_INFINITY;
    let complete = true;
    for (let k = 1; k <= h && complete; k++) {
      const depth = byDay.get(start + k);
      if (depth === undefined) complete = false;
      else lowest = Math.min(lowest, depth);
    }
    if (complete) countWindow(stats, lowest >= floor * reference, drawdownRatio(lowest, reference));
  }
  return stats;
}

/** The recent volatility as of the history's last day (NaN with none), as the walk forward reads it for that day. */
function lastVolatility(byDay: ReadonlyMap<number, number>, sortedDays: readonly number[]): number {
  if (sortedDays.length === 0) return Number.NaN;
  const first = sortedDays[0];
  const low = new Float64Array(sortedDays[sortedDays.length - 1] - first + 1).fill(Number.NaN);
  for (const [day, value] of byDay) low[day - first] = value;
  return recentVolatility(low)[low.length - 1];
}

/** `1 day`, `2 days`: counts in reasons read as a person would write them. */
function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
