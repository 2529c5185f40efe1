import type { Calibration } from "./calibration";
import { normalCdf } from "./normal";

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
