import { HorizonInputError } from "../errors/horizon";
import {
  calibratedProbability,
  logisticConfidence,
  MIN_EFFECTIVE_WINDOWS,
  PRIOR_PROBABILITY,
  type Calibration,
} from "./calibration";
import { normalCdf } from "./normal";
import { pooledPriorProbability } from "./pooledPrior";
import { recentVolatility } from "./volatility";

export { normalCdf } from "./normal";

/**
 * What a candidate horizon's past windows show, as every model version reads them. A window of h days starts on an
 * observed day s (its reference) and covers s+1 … s+h, all observed; its drawdown ratio is its lowest day over the
 * reference (1 when the reference is 0: nothing can fall below a floor of 0).
 */
export interface WindowStats {
  horizonDays: number;
  /** Complete windows. */
  windows: number;
  /** Windows in which the claim held (every day at or above floor × the reference). */
  held: number;
  /** Σ ln(drawdown ratio) over the windows (each ratio clamped at {@link MIN_RATIO}). */
  sumLogRatio: number;
  /** Σ ln(drawdown ratio)² over the windows. */
  sumLogRatioSquared: number;
  /**
   * The pool's recent volatility as of the claim's day (`recentVolatility` in ./volatility), which v6 reads; absent or
   * NaN when not known (no two consecutive observed days).
   */
  volatility?: number;
}

/** The smallest drawdown ratio counted (a window that fell to 0 counts as a fall to one millionth). */
export const MIN_RATIO = 1e-6;

/**
 * A version of the horizon model: how a candidate horizon's past windows ({@link WindowStats}) turn into a confidence,
 * in hundredths rounded down, and whether it meets the target (in millionths) at the claim's floor.
 */
export interface HorizonModelVersion {
  /** Stored in attestations (`attestations.model`, `claim.model`) and in evaluations. */
  id: string;
  /** One sentence: the rule, for people (the model page, docs/model.md). */
  rule: string;
  /**
   * True when the version reads a pooled calibration (one {@link Calibration} per horizon, fitted on other pools'
   * closed windows): the caller passes it as `calibration`. Without one it makes no claim.
   */
  pooled?: boolean;
  /** `"logistic"`: the version reads the calibration's logistic map (v6), which the fit then adds. */
  pooledFit?: "logistic";
  /** The confidence in hundredths (0–100, rounded down). */
  confidenceHundredths(stats: WindowStats, floor: number, calibration?: readonly Calibration[]): number;
  /** Whether the confidence meets the target (in millionths). */
  meetsTarget(
    stats: WindowStats,
    floor: number,
    targetMillionths: number,
    calibration?: readonly Calibration[],
  ): boolean;
}

/** v1 (docs/data.md#the-horizon-model): the plain share of past windows in which the claim held. Integer arithmetic. */
export const MODEL_V1: HorizonModelVersion = {
  id: "daily-min-windows/v1",
  rule: "the share of past windows of the horizon's length in which the claim held",
  confidenceHundredths: ({ held, windows }) => Math.floor((held * 100) / windows),
  meetsTarget: ({ held, windows }, _floor, target) => held * 1e6 >= target * windows,
};

/**
 * v2 (docs/model.md): windows of h days that start on consecutive days overlap and mostly share their
 * outcome, so they count as 2·windows/h independent trials; the confidence is Laplace's rule of succession on them,
 * (2·held/h + 1) / (2·windows/h + 2) = (2·held + h) / (2·windows + 2h). It shrinks a share measured on few independent
 * windows towards one half, so a long horizon on a short history no longer claims certainty. Integer arithmetic.
 */
export const MODEL_V2: HorizonModelVersion = {
  id: "daily-min-windows/v2",
  rule: "the share of past windows that held, with each h-day window counted as 2/h of an independent trial and shrunk towards one half (rule of succession)",
  confidenceHundredths: ({ held, windows, horizonDays: h }) =>
    Math.floor(((2 * held + h) * 100) / (2 * windows + 2 * h)),
  meetsTarget: ({ held, windows, horizonDays: h }, _floor, target) =>
    (2 * held + h) * 1e6 >= target * (2 * windows + 2 * h),
};

/** v3's smallest spread of log drawdowns: a pool that never moved is not taken to be certain. */
export const MARGIN_MIN_SPREAD = 0.1;

/**
 * v3's probability that the next window's drawdown ratio stays at or above `floor` (docs/model.md): the past windows'
 * log drawdown ratios, read as a normal distribution (their mean μ and standard deviation s, at least
 * {@link MARGIN_MIN_SPREAD}), widened as a prediction from n = 2·windows/h independent windows (s·√(1 + 1/n), n ≥ 1);
 * the confidence is Φ((μ − ln floor) / (s·√(1 + 1/n))). A pool whose windows all held but came close to the floor gets
 * less than one that never moved: the margin, not only the count, tells them apart.
 */
export function marginProbability(stats: WindowStats, floor: number): number {
  return normalCdf(marginScore(stats, floor));
}

/** v3's margin z: (μ − ln floor) / (s·√(1 + 1/n)), as {@link marginProbability} describes; v4's per-pool score. */
export function marginScore(stats: WindowStats, floor: number): number {
  const { windows, horizonDays: h } = stats;
  const mean = stats.sumLogRatio / windows;
  const variance = Math.max(0, stats.sumLogRatioSquared / windows - mean * mean);
  const independent = Math.max(1, (2 * windows) / h);
  const spread = Math.max(MARGIN_MIN_SPREAD, Math.sqrt(variance)) * Math.sqrt(1 + 1 / independent);
  return (mean - Math.log(floor)) / spread;
}

/**
 * v3 (docs/model.md): the margin model, {@link marginProbability}, never above v1's share of windows that
 * held. The margin gives what v1 and v2 lack on the demo, resolution: windows that all held but came close to the floor
 * score lower than windows that never moved. The cap keeps a normal curve from smoothing over a history whose windows
 * broke often (a pool that bleeds 5 % a day has windows near 1 and windows just under the floor, no normal shape).
 * Floating point (`Math.log`, `Math.exp`), rounded down to hundredths.
 */
export const MODEL_V3: HorizonModelVersion = {
  id: "daily-min-margin/v3",
  rule: "the chance that the next window's lowest depth stays above the floor, from the mean and spread of past windows' log drawdowns (normal, widened when there are few independent windows), never above the share of past windows that held",
  confidenceHundredths: (stats, floor) => Math.floor(marginConfidence(stats, floor) * 100 + 1e-9),
  meetsTarget: (stats, floor, target) => marginConfidence(stats, floor) * 1e6 >= target,
};

/** v3's confidence as a number in [0, 1]: the margin probability capped by the share of windows that held. */
function marginConfidence(stats: WindowStats, floor: number): number {
  return Math.min(marginProbability(stats, floor), stats.held / stats.windows);
}

/**
 * v4 (docs/model.md#v4-a-pooled-calibration): v3's margin score, without the cap by v1's share, mapped to a probability
 * per horizon by a pooled calibration: an isotonic fit of how often other pools' closed windows with such a score held
 * (`./calibration`, fitted by `PooledCalibrations` in `./pooledCalibration` on windows closed by the claim's day, never
 * the pool's own). One pool's clean history says little about rare falls; how often clean histories broke across pools
 * says more. A block of the fit on few windows is shrunk towards the horizon's pooled hold rate. Where the horizon's
 * pooled evidence is thin (fewer than {@link MIN_EFFECTIVE_WINDOWS} effective windows, or no calibration at all) the
 * conservative prior applies: v2's confidence on the pool's own windows, which promised more failures than happened on
 * every process family of the benchmark. Rounded down to hundredths.
 */
export const MODEL_V4: HorizonModelVersion = {
  id: "daily-min-margin-pooled/v4",
  rule: "the share of other pools' past windows that held among those whose margin score (v3's, uncapped) was like this pool's, by a monotone fit per horizon on windows closed by the day, shrunk towards the horizon's pooled hold rate where that evidence is thin; where the pooled evidence is too thin to fit, v2's conservative share of the pool's own windows",
  pooled: true,
  confidenceHundredths: (stats, floor, calibration) => {
    const map = pooledMap(stats, calibration);
    return map === undefined
      ? MODEL_V2.confidenceHundredths(stats, floor)
      : Math.floor(calibratedProbability(map, marginScore(stats, floor)) * 100 + 1e-9);
  },
  meetsTarget: (stats, floor, target, calibration) => {
    const map = pooledMap(stats, calibration);
    return map === undefined
      ? MODEL_V2.meetsTarget(stats, floor, target)
      : calibratedProbability(map, marginScore(stats, floor)) * 1e6 >= target;
  },
};

/** v4's map of the candidate's horizon; undefined where the pooled evidence is too thin to fit (the prior applies). */
function pooledMap(stats: WindowStats, calibration?: readonly Calibration[]): Calibration | undefined {
  const map = calibration?.find((c) => c.horizonDays === stats.horizonDays);
  return map === undefined || map.effectiveWindows < MIN_EFFECTIVE_WINDOWS ? undefined : map;
}

/** v5 (docs/model.md#v5-a-pooled-prior): v4, with `pooledPriorProbability` (./pooledPrior) in a deployment's first weeks. */
export const MODEL_V5: HorizonModelVersion = {
  id: "daily-min-margin-pooled/v5",
  rule: "as v4 (the share of other pools' past windows that held among those with a like margin score, by a monotone fit per horizon on windows closed by the day, v2's conservative share where the horizon's pooled evidence is too thin); while no horizon up to this one has the pooled evidence to fit, the share of the pool's own windows shrunk towards the pooled hold rate of other pools' windows of the horizon, never above it",
  pooled: true,
  confidenceHundredths: (stats, floor, calibration) => {
    const basis = v5Basis(stats, calibration);
    if (basis === "v2") return MODEL_V2.confidenceHundredths(stats, floor);
    return Math.floor(v5Probability(basis, stats, floor) * 100 + 1e-9);
  },
  meetsTarget: (stats, floor, target, calibration) => {
    const basis = v5Basis(stats, calibration);
    if (basis === "v2") return MODEL_V2.meetsTarget(stats, floor, target);
    return v5Probability(basis, stats, floor) * 1e6 >= target;
  },
};

/** v5's basis: the horizon's fitted map; else, while no shorter horizon has one, the pooled prior; else v2, as v4. */
function v5Basis(
  stats: WindowStats,
  calibration?: readonly Calibration[],
): { map: Calibration } | { prior: Calibration | undefined } | "v2" {
  const map = pooledMap(stats, calibration);
  if (map !== undefined) return { map };
  const shorterFitted = (calibration ?? []).some(
    (c) => c.horizonDays < stats.horizonDays && c.effectiveWindows >= MIN_EFFECTIVE_WINDOWS,
  );
  if (shorterFitted) return "v2";
  return { prior: calibration?.find((c) => c.horizonDays === stats.horizonDays) };
}

function v5Probability(
  basis: { map: Calibration } | { prior: Calibration | undefined },
  stats: WindowStats,
  floor: number,
): number {
  return "map" in basis
    ? calibratedProbability(basis.map, marginScore(stats, floor))
    : pooledPriorProbability(stats, basis.prior);
}

/**
 * v6 (docs/model.md#v6-margin-and-recent-volatility): a pooled map per horizon that reads two things about the pool, v3's
 * margin score and its recent volatility (`recentVolatility` in ./volatility), by a logistic regression fitted on other
 * pools' windows closed by the day (`logisticMap` in ./calibration). Thin evidence claims short or nothing: where the
 * horizon's pooled evidence is too thin to fit, the shortest candidate reads v5's pooled prior and a longer one makes
 * no claim; a lone pool (no other pool's window at all) reads v2, as v4 and v5 do. Rounded down to hundredths.
 */
export const MODEL_V6: HorizonModelVersion = {
  id: "daily-min-margin-volatility/v6",
  rule: "the probability that a window holds, from the pool's margin score (v3's, uncapped) and its recent volatility, by a logistic regression per horizon on other pools' windows closed by the day; where that evidence is too thin to fit, the shortest horizon reads the pool's own windows shrunk towards the pooled hold rate (never above it) and longer ones claim nothing; a lone pool reads v2",
  pooled: true,
  pooledFit: "logistic",
  confidenceHundredths: (stats, floor, calibration) => {
    const basis = v6Basis(stats, calibration);
    if (basis === "v2") return MODEL_V2.confidenceHundredths(stats, floor);
    return Math.floor(v6Probability(basis, stats, floor) * 100 + 1e-9);
  },
  meetsTarget: (stats, floor, target, calibration) => {
    const basis = v6Basis(stats, calibration);
    if (basis === "v2") return MODEL_V2.meetsTarget(stats, floor, target);
    return v6Probability(basis, stats, floor) * 1e6 >= target;
  },
};

/**
 * v6's basis: the horizon's fitted map; a lone pool (no pooled window of any horizon) v2; else, where the map is too
 * thin, v5's pooled prior on the shortest candidate and no claim on a longer one.
 */
function v6Basis(
  stats: WindowStats,
  calibration?: readonly Calibration[],
): { map: Calibration } | { prior: Calibration | undefined } | "none" | "v2" {
  const map = pooledMap(stats, calibration);
  if (map !== undefined) return { map };
  const maps = calibration ?? [];
  if (!maps.some((c) => (c.pooledWindows ?? 0) > 0)) return "v2";
  if (maps.some((c) => c.horizonDays < stats.horizonDays)) return "none";
  return { prior: maps.find((c) => c.horizonDays === stats.horizonDays) };
}

function v6Probability(
  basis: { map: Calibration } | { prior: Calibration | undefined } | "none",
  stats: WindowStats,
  floor: number,
): number {
  if (basis === "none") return PRIOR_PROBABILITY;
  if (!("map" in basis)) return pooledPriorProbability(stats, basis.prior);
  if (basis.map.logistic === undefined) {
    // A programming error, not an input one: the maps were fitted without v6's logistic fit.
    throw new Error(
      "v6 reads the logistic map: fit the calibration with the rule's model (PooledCalibrations, fitCalibration)",
    );
  }
  return logisticConfidence(basis.map, marginScore(stats, floor), stats.volatility ?? Number.NaN);
}

/** Every version, oldest first: each is evaluated side by side (`GET /api/v1/model`). */
export const HORIZON_MODELS: readonly HorizonModelVersion[] = [
  MODEL_V1,
  MODEL_V2,
  MODEL_V3,
  MODEL_V4,
  MODEL_V5,
  MODEL_V6,
];

/** The version that issues attestations (docs/model.md says why). */
export const ISSUING_MODEL: HorizonModelVersion = MODEL_V6;

/** Identifies the issuing model in stored attestations (`attestations.model`). */
export const HORIZON_MODEL_ID = ISSUING_MODEL.id;

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
    const stats: WindowStats = {
      horizonDays: h,
      windows: 0,
      held: 0,
      sumLogRatio: 0,
      sumLogRatioSquared: 0,
      volatility,
    };
    for (const start of starts) {
      const reference = byDay.get(start)!;
      const threshold = floor * reference;
      let complete = true;
      let lowest = Number.POSITIVE_INFINITY;
      for (let k = 1; k <= h; k++) {
        const depth = byDay.get(start + k);
        if (depth === undefined) {
          complete = false;
          break;
        }
        lowest = Math.min(lowest, depth);
      }
      if (!complete) continue;
      countWindow(stats, lowest >= threshold, drawdownRatio(lowest, reference));
    }
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
