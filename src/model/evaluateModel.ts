import { windowWeight, type Calibration } from "./calibration";
import { climatology } from "./climatology";
import type { ClaimOutcome } from "./gradeClaim";
import {
  campaignCapDays,
  DEFAULT_CANDIDATES,
  ISSUING_MODEL,
  type DailyDepth,
  type HorizonModelVersion,
  type WindowStats,
} from "./horizon";
import { PooledCalibrations } from "./pooledCalibration";
import { recentVolatility } from "./volatility";
import { candidateSums, dayNumber, dayString, daySeries } from "./windowSeries";

/** Confidence buckets of the calibration table: [from, to) in hundredths, the last one closed at 1. */
export const CALIBRATION_BUCKET_WIDTH = 0.05;
/** The evaluation lists at least this many scored claims (all of them when there are fewer). */
export const SAMPLE_SIZE = 200;

/** One pool's history for the evaluation: its OBSERVED daily lows only (never a feed's daily point). */
export interface EvaluatedPool {
  /** `eip155:<chainId>:<address>`. */
  pool: string;
  daily: readonly DailyDepth[];
  /**
   * The depth (USD) the first attestation issued on a day states, per day (`depth_at_issuance_usd`; the history's
   * `depthUsd`): the claim as of that day is anchored on it. A day without one is anchored on its low.
   */
  depths?: readonly { day: string; depthUsd: number }[];
  /** Known end times (Unix s) of the incentive campaigns that cap the pool's claims, as issuance reads them. */
  campaignEnds?: readonly number[];
}

/** The rule's parameters, as the issuer uses them (docs/data.md#the-horizon-model). */
export interface ModelRule {
  floor: number;
  target: number;
  candidates?: readonly number[];
  minWindows?: number;
  /** The model version replayed. Default {@link ISSUING_MODEL}. */
  model?: HorizonModelVersion;
}

/** One claim the model would have made as of a past day, and how it came out once its window closed. */
export interface EvaluatedClaim {
  pool: string;
  /** The day the claim is made as of (`YYYY-MM-DD`): it uses only the days up to and including this one. */
  asOf: string;
  horizon: number;
  /** 0–1, two digits (the published hundredths). */
  confidence: number;
  /** floor × the depth the day's attestation states (the day's low when none), USD. */
  floorUsd: number;
  /**
   * The accuracy record's rule (`gradeClaim`): `pending` while the window d+1 … d+h has not closed; `failed` when an
   * observed low in it is below the floor; else `void` when a day of it has no observed low; else `held`.
   */
  outcome: ClaimOutcome;
}

export interface CalibrationBucket {
  from: number;
  to: number;
  n: number;
  /**
   * The bucket's effective sample size: claims of one pool on consecutive days share most of their window, so an
   * h-day claim counts as min(1, 2/h) of an independent one (as the pooled calibration counts windows).
   */
  effectiveN: number;
  meanConfidence: number;
  holdRate: number;
  /** The 90 % Wilson interval of the hold rate on the effective sample size. */
  interval90: { low: number; high: number };
}

/** The standard normal quantile of 0.95: a two-sided 90 % interval. */
const Z90 = 1.6448536269514722;

/**
 * The Wilson score interval of a proportion `rate` observed on `n` trials (n may be fractional: an effective sample
 * size), at the two-sided level of `z`; [0, 1] when n is 0.
 */
export function wilsonInterval(rate: number, n: number, z = Z90): { low: number; high: number } {
  if (!(n > 0)) return { low: 0, high: 1 };
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (rate + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((rate * (1 - rate)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, center - half), high: Math.min(1, center + half) };
}

/**
 * The 90 % interval of a mean whose terms come in clusters that are not independent inside (a pool's claims share days
 * and the pool's own ways): the mean ± z × its cluster-robust standard error √(G / (G − 1) · Σ_g S_g²) / N, where S_g is
 * cluster g's sum of deviations from the mean, G the clusters and N the terms ({@link brierDifference90} puts one on
 * the difference of Brier scores, pools as the clusters). NaN bounds with fewer than two clusters.
 */
export function clusteredInterval(
  terms: readonly { cluster: string; value: number }[],
  z = Z90,
): { low: number; high: number } {
  const center = terms.reduce((sum, t) => sum + t.value, 0) / terms.length;
  const sums = new Map<string, number>();
  for (const t of terms) sums.set(t.cluster, (sums.get(t.cluster) ?? 0) + t.value - center);
  const g = sums.size;
  if (g < 2) return { low: Number.NaN, high: Number.NaN };
  let squares = 0;
  for (const s of sums.values()) squares += s * s;
  const half = (z * Math.sqrt((g / (g - 1)) * squares)) / terms.length;
  return { low: center - half, high: center + half };
}

export interface ModelEvaluation {
  /** The last complete day the evaluation saw (`YYYY-MM-DD`), or null with no history. */
  asOf: string | null;
  claims: number;
  /** Claims whose window closed held or failed: the ones the scores count. */
  scored: number;
  held: number;
  /** Claims whose window closed with a day that has no observed low and none below the floor: not scored. */
  void: number;
  /** Mean of (confidence − outcome)² over scored claims; null when none is scored. */
  brier: number | null;
  /**
   * The Brier score of the climatology (`climatology` in ./climatology) over the same scored claims: each forecast the
   * pooled hold rate of all pools' windows of its horizon closed by its day. Null when none is scored.
   */
  baselineBrier: number | null;
  /**
   * The 90 % interval of brier − baselineBrier (`clusteredInterval`, the pools as clusters: a pool's claims share days
   * and the pool's ways): wholly below 0 when the model beats the climatology by more than chance. Null when nothing
   * is scored or fewer than two pools are.
   */
  brierDifference90: { low: number; high: number } | null;
  buckets: CalibrationBucket[];
  byHorizon: { horizon: number; n: number; holdRate: number }[];
  /** At least {@link SAMPLE_SIZE} scored claims spread over the whole set (all when fewer), to recompute by hand. */
  sample: SampleClaim[];
}

/** A scored claim as the evaluation's `sample` lists it: `held` true or false. */
export type SampleClaim = Omit<EvaluatedClaim, "outcome"> & { held: boolean };

/**
 * The claims the horizon model would have made for one pool, walking forward day by day
 * (docs/model.md#the-evaluation-walk-forward), replaying what is signed: as of each day d with a low or a stated
 * depth, the rule of `computeHorizon` (the version `rule.model`) on the days up to d (windows d' … d'+h that closed by
 * d); the claim made at 00:00 UTC of d, its horizon capped by the pool's campaign ends as issuance caps it
 * (`campaignCapDays`); its floor `rule.floor` × the depth the day's attestation states (`pool.depths`), or × d's low
 * on a day without one. Its outcome follows the accuracy record's rule (`gradeClaim` with issuance day d; the array
 * loop {@link gradeWindow} is that rule): pending until d+h is complete, then failed, void or held. Each candidate's
 * windows are counted once for the whole series (sliding minimum, prefix sums), so a pool of n days costs
 * O(candidates × n), not a model run per day.
 *
 * @param pool the pool's observed daily lows, any order.
 * @param rule the floor, target, candidates and minimum windows the issuer uses.
 * @param lastDay the last complete day (`YYYY-MM-DD`): windows ending after it are not scored.
 * @param calibrationAt for a pooled version (v4): the calibration of this pool as of a day number, fitted on other
 *   pools' windows closed by that day (`PooledCalibrations.forPool`); called with increasing days.
 * @returns every claim the rule makes, oldest first (days with no horizon make none).
 */
export function walkForward(
  pool: EvaluatedPool,
  rule: ModelRule,
  lastDay: string,
  calibrationAt?: (day: number) => readonly Calibration[],
): EvaluatedClaim[] {
  const candidates = [...(rule.candidates ?? DEFAULT_CANDIDATES)].sort((a, b) => a - b);
  const minWindows = rule.minWindows ?? 7;
  const targetMillionths = Math.round(rule.target * 1e6);
  const model = rule.model ?? ISSUING_MODEL;
  const last = dayNumber(lastDay);
  const series = daySeries(pool.daily, last);
  if (series === null) return [];
  const { first, span, low } = series;
  // Each candidate's windows as prefix sums over their end day: any day's windows are read at once.
  const perCandidate = candidates.map((h) => candidateSums(series, h, rule.floor));
  const volatility = recentVolatility(low);
  const stated = new Float64Array(span).fill(Number.NaN);
  for (const { day, depthUsd } of pool.depths ?? []) {
    const i = dayNumber(day) - first;
    if (i >= 0 && i < span) stated[i] = depthUsd;
  }
  const campaignEnds = pool.campaignEnds ?? [];

  const claims: EvaluatedClaim[] = [];
  for (let d = 0; d < span && first + d <= last; d++) {
    // The depth the claim is anchored on: the one the day's attestation states, else the day's low.
    const anchor = Number.isNaN(stated[d]) ? low[d] : stated[d];
    if (Number.isNaN(anchor) || !(anchor > 0)) continue;
    const capDays = campaignEnds.length > 0 ? campaignCapDays(campaignEnds, (first + d) * 86_400) : null;
    const calibration = model.pooled ? calibrationAt?.(first + d) : undefined;
    let chosen: { h: number; share: number } | null = null;
    for (const c of perCandidate) {
      if (capDays !== null && c.h > capDays) continue;
      const stats: WindowStats = {
        horizonDays: c.h,
        windows: c.windows[d + 1],
        held: c.held[d + 1],
        sumLogRatio: c.sumLog[d + 1],
        sumLogRatioSquared: c.sumLogSquared[d + 1],
        volatility: volatility[d],
      };
      if (stats.windows < minWindows || !model.meetsTarget(stats, rule.floor, targetMillionths, calibration)) continue;
      chosen = { h: c.h, share: model.confidenceHundredths(stats, rule.floor, calibration) };
    }
    if (chosen === null) continue;
    const floorUsd = rule.floor * anchor;
    claims.push({
      pool: pool.pool,
      asOf: dayString(first + d),
      horizon: chosen.h,
      confidence: chosen.share / 100,
      floorUsd,
      outcome: gradeWindow(low, d, chosen.h, floorUsd, last - first),
    });
  }
  return claims;
}

/**
 * The accuracy record's rule (`gradeClaim` in ./gradeClaim) on a day series, for a claim made on index d for h days:
 * `pending` when d + h is after `lastIndex` (the last final day); else `failed` at the first window day d+1 … d+h whose
 * observed low is below `floorUsd`; else `void` when a window day has no observed low (NaN); else `held`. The same
 * outcome as `gradeClaim({issuedDay: day d, horizon: h, floorUsd}, observed low of a day, day lastIndex)`
 * (test/model/evaluateModel.test.ts compares both on random series with gaps), without a day string per day.
 *
 * @param low the lows by day index, NaN where none was observed.
 * @param d the claim's day index.
 * @param h its horizon in days (≥ 1).
 * @param floorUsd its floor.
 * @param lastIndex the index of the last final day.
 */
export function gradeWindow(
  low: Float64Array,
  d: number,
  h: number,
  floorUsd: number,
  lastIndex: number,
): ClaimOutcome {
  if (d + h > lastIndex) return "pending";
  let missing = false;
  for (let k = d + 1; k <= d + h; k++) {
    const value = k < low.length ? low[k] : Number.NaN;
    if (!Number.isFinite(value)) missing = true;
    else if (value < floorUsd) return "failed";
  }
  return missing ? "void" : "held";
}

/**
 * The walk-forward evaluation of the horizon model over every pool (docs/model.md#the-evaluation-walk-forward): its
 * claims, the scored ones and how many held, the Brier score beside the baseline's, calibration buckets, a per-horizon
 * breakdown and a sample anyone can recompute from `GET /api/v1/pool/{pool}/history`. It judges the model, never an
 * issued attestation.
 *
 * @param pools each pool's observed daily lows.
 * @param rule the issuer's floor, target and candidates.
 * @param lastDay the last complete day (`YYYY-MM-DD`).
 * @returns the {@link ModelEvaluation}.
 */
export function evaluateModel(pools: readonly EvaluatedPool[], rule: ModelRule, lastDay: string): ModelEvaluation {
  return evaluateModelWithClaims(pools, rule, lastDay).evaluation;
}

/** A scored claim: its window closed, and it held or failed (a `void` claim is not scored). */
export type ScoredClaim = EvaluatedClaim & { outcome: "held" | "failed" };

/**
 * {@link evaluateModel}, with every scored claim it counted: in the order the evaluation walks them (pools in the given
 * order, each pool's claims oldest first). The Brier score recomputes exactly from them: the mean of
 * (confidence − outcome)², rounded to 6 decimals. Void claims are counted (`void`), not listed.
 */
export function evaluateModelWithClaims(
  pools: readonly EvaluatedPool[],
  rule: ModelRule,
  lastDay: string,
): { evaluation: ModelEvaluation; scored: ScoredClaim[] } {
  const model = rule.model ?? ISSUING_MODEL;
  const pooled = model.pooled ? new PooledCalibrations(pools, { ...rule, model }, lastDay) : null;
  const claims = pools.flatMap((pool) => walkForward(pool, rule, lastDay, pooled?.forPool(pool.pool)));
  const scored = claims.filter(isScored);
  const voided = claims.filter((claim) => claim.outcome === "void").length;
  const forecast = climatology({ pools, floor: rule.floor, candidates: rule.candidates }, lastDay);
  return { evaluation: summarize(pools, claims.length, scored, voided, forecast, lastDay), scored };
}

/** Whether a claim is scored: held or failed (pending and void ones are not). */
export function isScored(claim: EvaluatedClaim): claim is ScoredClaim {
  return claim.outcome === "held" || claim.outcome === "failed";
}

/** A scored claim as published (`attest model evaluate --claims`, `GET /api/v1/model/claims`). */
export interface PublishedClaim {
  pool: string;
  asOf: string;
  horizon: number;
  confidence: number;
  floorUsd: number;
  /** "held": every observed daily low of the window at or above floorUsd; "failed": one below it. */
  outcome: "held" | "failed";
}

/** The published form of a scored claim. */
export function publishedClaim(claim: ScoredClaim): PublishedClaim {
  return {
    pool: claim.pool,
    asOf: claim.asOf,
    horizon: claim.horizon,
    confidence: claim.confidence,
    floorUsd: claim.floorUsd,
    outcome: claim.outcome,
  };
}

/** The evaluation's figures from its claims. */
function summarize(
  pools: readonly EvaluatedPool[],
  claimCount: number,
  scored: readonly ScoredClaim[],
  voided: number,
  forecast: (asOf: string, horizon: number) => number,
  lastDay: string,
): ModelEvaluation {
  const held = scored.filter((claim) => claim.outcome === "held").length;
  const rate = scored.length > 0 ? held / scored.length : null;
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const outcomeOf = (claim: ScoredClaim) => (claim.outcome === "held" ? 1 : 0);
  const scores = scoreGraded(scored);
  const lastSeen = pools
    .flatMap((pool) => pool.daily.map((entry) => entry.day))
    .sort()
    .at(-1);
  return {
    asOf: lastSeen === undefined ? null : lastSeen < lastDay ? lastSeen : lastDay,
    claims: claimCount,
    scored: scored.length,
    held,
    void: voided,
    brier: scores.brier,
    baselineBrier:
      rate === null ? null : round6(mean(scored.map((c) => (forecast(c.asOf, c.horizon) - outcomeOf(c)) ** 2))),
    brierDifference90: brierDifference90(scored, forecast),
    buckets: scores.buckets,
    byHorizon: scores.byHorizon,
    sample: spreadSample(scored, SAMPLE_SIZE).map(({ outcome, ...claim }) => ({ ...claim, held: outcome === "held" })),
  };
}

/**
 * {@link ModelEvaluation.brierDifference90}: the clustered interval of the claims' squared-error differences (the
 * model's less the climatology's `forecast`); `npm run bench:families` prints it per set.
 */
export function brierDifference90(
  scored: readonly ScoredClaim[],
  forecast: (asOf: string, horizon: number) => number,
): { low: number; high: number } | null {
  if (scored.length === 0) return null;
  const interval = clusteredInterval(
    scored.map((c) => {
      const y = c.outcome === "held" ? 1 : 0;
      return { cluster: c.pool, value: (c.confidence - y) ** 2 - (forecast(c.asOf, c.horizon) - y) ** 2 };
    }),
  );
  return Number.isNaN(interval.low) ? null : { low: round6(interval.low), high: round6(interval.high) };
}

/** A claim that held or failed, as the scores read it: the model evaluation's scored claims and the accuracy record's. */
export interface GradedClaimScore {
  confidence: number;
  horizon: number;
  outcome: "held" | "failed";
}

/**
 * The scores of held and failed claims, one definition for the model evaluation and the accuracy record: the Brier
 * score (mean of (confidence − outcome)², outcome 1 when held; null when there is none), the calibration buckets and
 * the hold rate per horizon.
 */
export function scoreGraded(scored: readonly GradedClaimScore[]): {
  brier: number | null;
  buckets: CalibrationBucket[];
  byHorizon: { horizon: number; n: number; holdRate: number }[];
} {
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const outcomeOf = (claim: GradedClaimScore) => (claim.outcome === "held" ? 1 : 0);
  return {
    brier: scored.length === 0 ? null : round6(mean(scored.map((c) => (c.confidence - outcomeOf(c)) ** 2))),
    buckets: calibration(scored),
    byHorizon: [...new Set(scored.map((claim) => claim.horizon))]
      .sort((a, b) => a - b)
      .map((horizon) => {
        const group = scored.filter((claim) => claim.horizon === horizon);
        return { horizon, n: group.length, holdRate: round6(mean(group.map(outcomeOf))) };
      }),
  };
}

/** Scored claims grouped by confidence in buckets of {@link CALIBRATION_BUCKET_WIDTH}; empty buckets left out. */
function calibration(scored: readonly GradedClaimScore[]): CalibrationBucket[] {
  const count = Math.round(1 / CALIBRATION_BUCKET_WIDTH);
  const groups = new Map<number, GradedClaimScore[]>();
  for (const claim of scored) {
    const index = Math.min(
      count - 1,
      Math.floor(Math.round(claim.confidence * 100) / (CALIBRATION_BUCKET_WIDTH * 100)),
    );
    const group = groups.get(index);
    if (group === undefined) groups.set(index, [claim]);
    else group.push(claim);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, group]) => {
      const holdRate = group.filter((c) => c.outcome === "held").length / group.length;
      const effectiveN = group.reduce((sum, c) => sum + windowWeight(c.horizon), 0);
      const interval = wilsonInterval(holdRate, effectiveN);
      return {
        from: round6(index * CALIBRATION_BUCKET_WIDTH),
        to: round6((index + 1) * CALIBRATION_BUCKET_WIDTH),
        n: group.length,
        effectiveN: round6(effectiveN),
        meanConfidence: round6(group.reduce((sum, c) => sum + c.confidence, 0) / group.length),
        holdRate: round6(holdRate),
        interval90: { low: round6(interval.low), high: round6(interval.high) },
      };
    });
}

/** `size` items spread evenly over `items` (every item when there are fewer), in their order. */
function spreadSample<T>(items: readonly T[], size: number): T[] {
  if (items.length <= size) return [...items];
  return Array.from({ length: size }, (_, i) => items[Math.floor((i * items.length) / size)]);
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;
