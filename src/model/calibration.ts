/**
 * A pooled calibration: a monotone map from a per-pool score to a probability, per horizon, fitted on the closed windows
 * of other pools. The score is v3's margin z (see `marginScore` in ./horizon): higher means the pool's own past windows
 * stayed further above the floor. A pool's clean history is one pool's evidence; how often windows with such a score
 * held across pools is what the map reads.
 *
 * This file holds the value and the fit from counts; `./pooledCalibration` counts the windows of pools' histories.
 */

import { fitLogistic, logisticProbability, type LogisticRow } from "./logistic";

/** Scores are counted in bins of this width between {@link SCORE_MIN} and {@link SCORE_MAX} (plus one bin each side). */
export const SCORE_BIN_WIDTH = 0.25;
export const SCORE_MIN = -2;
export const SCORE_MAX = 8;
/** The number of score bins: below {@link SCORE_MIN}, the steps in between, and at or above {@link SCORE_MAX}. */
export const SCORE_BINS = 2 + Math.round((SCORE_MAX - SCORE_MIN) / SCORE_BIN_WIDTH);

/**
 * v6 and v7 also count windows by the pool's recent volatility as of the window's first day (`recentVolatility` in
 * ./windowSeries): classes of ln(volatility) {@link VOLATILITY_CLASS_WIDTH} wide from ln {@link VOLATILITY_MIN} (plus one
 * class below, and the last class open above). A day without a volatility (no two consecutive observed days yet) is in
 * the last class: taken to be as volatile as any.
 */
export const VOLATILITY_MIN = 0.004;
export const VOLATILITY_CLASS_WIDTH = Math.LN2 / 2;
export const VOLATILITY_CLASSES = 12;
/** Cells of a horizon's counts: score bin × volatility class, index bin × {@link VOLATILITY_CLASSES} + class. */
export const CELLS = SCORE_BINS * VOLATILITY_CLASSES;

/** The class of a recent volatility (NaN: the last class). */
export function volatilityClass(volatility: number): number {
  if (!(volatility >= 0)) return VOLATILITY_CLASSES - 1;
  const x = Math.log(volatility);
  if (!(x >= Math.log(VOLATILITY_MIN))) return 0;
  return Math.min(VOLATILITY_CLASSES - 1, 1 + Math.floor((x - Math.log(VOLATILITY_MIN)) / VOLATILITY_CLASS_WIDTH));
}

/** The middle of a volatility class, in ln(volatility): the feature the logistic fit reads for the class's windows. */
export function volatilityClassCenter(volatilityClass: number): number {
  return Math.log(VOLATILITY_MIN) + (volatilityClass - 0.5) * VOLATILITY_CLASS_WIDTH;
}

/** The middle of a score bin: the feature the logistic fit reads for the bin's windows. */
export function scoreBinCenter(bin: number): number {
  return SCORE_MIN + (bin - 0.5) * SCORE_BIN_WIDTH;
}

/** The probability used where the pooled evidence is thin: below any issuing target, so thin evidence issues nothing. */
export const PRIOR_PROBABILITY = 0.5;
/**
 * The weight, in effective windows, with which each block of the fit is shrunk towards the horizon's pooled hold rate:
 * a block of W effective windows keeps W / (W + this) of its own rate.
 */
export const PRIOR_WEIGHT = 10;
/** Below this many effective pooled windows for a horizon, the whole map is the prior: too little to fit on. */
export const MIN_EFFECTIVE_WINDOWS = 30;

/**
 * The pooled calibration of one horizon, a plain value (JSON): the probability for a score is `probabilities[bin]`,
 * bin = {@link scoreBin}(score). Monotone non-decreasing in the bin.
 */
export interface Calibration {
  horizonDays: number;
  /** The effective number of pooled windows behind the map (each h-day window counts min(1, 2/h)). */
  effectiveWindows: number;
  /** One probability per score bin ({@link SCORE_BINS}). */
  probabilities: number[];
  /**
   * Every pooled window of the horizon closed by the day, scored or not (a window counts from the pool's first day,
   * before the pool had the windows to score it), in effective windows; and of them, those that held. v5's prior.
   */
  pooledWindows?: number;
  pooledHeld?: number;
  /**
   * v6's map, where fitted (`calibrate(counts, { logistic: true })`): the coefficients of a logistic regression of
   * hold on [score, ln recent volatility], `[intercept, score slope, volatility slope]` (`logisticConfidence`).
   */
  logistic?: number[];
}

/** Windows counted per score bin for one horizon: how many closed, how many held. */
export interface BinCounts {
  horizonDays: number;
  windows: Int32Array;
  held: Int32Array;
  /** The same windows per cell (score bin × volatility class, {@link CELLS}), and held. */
  cellWindows: Int32Array;
  cellHeld: Int32Array;
  /** Windows without a score (the pool had fewer than the minimum windows on the window's first day), and held. */
  unscoredWindows: number;
  unscoredHeld: number;
}

export function emptyCounts(horizonDays: number): BinCounts {
  return {
    horizonDays,
    windows: new Int32Array(SCORE_BINS),
    held: new Int32Array(SCORE_BINS),
    cellWindows: new Int32Array(CELLS),
    cellHeld: new Int32Array(CELLS),
    unscoredWindows: 0,
    unscoredHeld: 0,
  };
}

/** The bin of a score: 0 below {@link SCORE_MIN}, {@link SCORE_BINS} − 1 at or above {@link SCORE_MAX}. */
export function scoreBin(score: number): number {
  if (!(score >= SCORE_MIN)) return 0;
  if (score >= SCORE_MAX) return SCORE_BINS - 1;
  return 1 + Math.min(SCORE_BINS - 3, Math.floor((score - SCORE_MIN) / SCORE_BIN_WIDTH));
}

/** The effective weight of one h-day window: windows starting on consecutive days overlap, h/2 of them count as one. */
export function windowWeight(horizonDays: number): number {
  return Math.min(1, 2 / horizonDays);
}

/**
 * The isotonic (monotone non-decreasing) least-squares fit of `values` with `weights`, in their order: the
 * pool-adjacent-violators algorithm. Items of weight 0 take the value of the block they fall in (their own value when
 * alone). Returns one fitted value per item.
 */
export function isotonicFit(values: readonly number[], weights: readonly number[]): number[] {
  const blockValue: number[] = [];
  const blockWeight: number[] = [];
  const blockSize: number[] = [];
  for (let i = 0; i < values.length; i++) {
    let value = values[i];
    let weight = weights[i];
    let size = 1;
    while (blockValue.length > 0 && blockValue[blockValue.length - 1] > value) {
      const w = blockWeight.pop()!;
      const v = blockValue.pop()!;
      const total = w + weight;
      value = total > 0 ? (v * w + value * weight) / total : Math.min(v, value);
      weight = total;
      size += blockSize.pop()!;
    }
    blockValue.push(value);
    blockWeight.push(weight);
    blockSize.push(size);
  }
  const out: number[] = [];
  for (let b = 0; b < blockValue.length; b++) for (let k = 0; k < blockSize[b]; k++) out.push(blockValue[b]);
  return out;
}

/**
 * The calibration of one horizon from its counted windows. With fewer than {@link MIN_EFFECTIVE_WINDOWS} effective
 * windows in all, the map is {@link PRIOR_PROBABILITY} everywhere (no claim). Else: the isotonic fit of the bins' hold
 * rates (weighted by their effective windows); each fitted block shrunk towards the horizon's pooled hold rate with
 * weight {@link PRIOR_WEIGHT} (a block on few effective windows says little beyond the pooled rate), and fitted again
 * so the map stays monotone.
 * Empty bins take the value of the nearest non-empty bin below (below the first, the prior or that bin's value if
 * lower): a score beyond the
 * evidence gets no more than the evidence below it shows.
 */
export function calibrate(counts: BinCounts, options: { logistic?: boolean } = {}): Calibration {
  const weight = windowWeight(counts.horizonDays);
  const present: number[] = [];
  for (let b = 0; b < SCORE_BINS; b++) if (counts.windows[b] > 0) present.push(b);
  const rates = present.map((b) => counts.held[b] / counts.windows[b]);
  const weights = present.map((b) => counts.windows[b] * weight);
  const fitted = isotonicFit(rates, weights);
  // Each block's effective windows: the sum over the bins it joined.
  const blockWeights: number[] = [];
  for (let i = 0; i < present.length;) {
    let j = i;
    let w = 0;
    while (j < present.length && fitted[j] === fitted[i]) w += weights[j++];
    for (let k = i; k < j; k++) blockWeights.push(w);
    i = j;
  }
  const effectiveWindows = weights.reduce((sum, w) => sum + w, 0);
  let allHeld = counts.unscoredHeld;
  for (const b of present) allHeld += counts.held[b];
  const pooled = {
    pooledWindows: effectiveWindows + counts.unscoredWindows * weight,
    pooledHeld: allHeld * weight,
  };
  if (effectiveWindows < MIN_EFFECTIVE_WINDOWS) {
    return {
      horizonDays: counts.horizonDays,
      effectiveWindows,
      probabilities: new Array<number>(SCORE_BINS).fill(PRIOR_PROBABILITY),
      ...pooled,
    };
  }
  const pooledRate = rates.reduce((sum, rate, i) => sum + rate * weights[i], 0) / effectiveWindows;
  const shrunk = fitted.map(
    (p, i) => (p * blockWeights[i] + pooledRate * PRIOR_WEIGHT) / (blockWeights[i] + PRIOR_WEIGHT),
  );
  const monotone = isotonicFit(
    shrunk,
    weights.map((w) => w + PRIOR_WEIGHT),
  );
  const probabilities = new Array<number>(SCORE_BINS);
  let current = Math.min(PRIOR_PROBABILITY, monotone[0] ?? PRIOR_PROBABILITY);
  let next = 0;
  for (let b = 0; b < SCORE_BINS; b++) {
    if (next < present.length && present[next] === b) current = monotone[next++];
    probabilities[b] = current;
  }
  return {
    horizonDays: counts.horizonDays,
    effectiveWindows,
    probabilities,
    ...pooled,
    ...(options.logistic ? { logistic: logisticMap(counts) } : {}),
  };
}

/**
 * v6's map: a logistic regression of hold on the score and ln(recent volatility) over the horizon's cells (each cell's
 * features its middle; its weight its effective windows). Two slopes and an intercept on thousands of windows: far
 * less noise than a map per bin, and it reads the volatility that a pool's margin score cannot see (a calm pool
 * entering a stressed week).
 */
export function logisticMap(counts: BinCounts): number[] {
  const weight = windowWeight(counts.horizonDays);
  const rows: LogisticRow[] = [];
  for (let cell = 0; cell < CELLS; cell++) {
    const n = counts.cellWindows[cell];
    if (n === 0) continue;
    rows.push({
      x: [scoreBinCenter(Math.floor(cell / VOLATILITY_CLASSES)), volatilityClassCenter(cell % VOLATILITY_CLASSES)],
      weight: n * weight,
      rate: counts.cellHeld[cell] / n,
    });
  }
  return fitLogistic(rows, 2);
}

/**
 * v6's confidence: the logistic map at the pool's score and recent volatility, each clamped to the span the cells
 * cover (a score or a volatility beyond the evidence reads as its last cell); a volatility that is not known (NaN)
 * reads as the last class, as the counts place such windows.
 */
export function logisticConfidence(calibration: Calibration, score: number, volatility: number): number {
  const beta = calibration.logistic ?? [0, 0, 0];
  const z = Math.min(scoreBinCenter(SCORE_BINS - 1), Math.max(scoreBinCenter(0), score));
  const lowest = volatilityClassCenter(0);
  const highest = volatilityClassCenter(VOLATILITY_CLASSES - 1);
  const v = volatility >= 0 ? Math.min(highest, Math.max(lowest, Math.log(volatility))) : highest;
  return logisticProbability(beta, [z, v]);
}

/** The calibrated probability of `score` for the horizon of `calibration`. */
export function calibratedProbability(calibration: Calibration, score: number): number {
  return calibration.probabilities[scoreBin(score)];
}
