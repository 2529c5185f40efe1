import { HorizonInputError } from "../errors/horizon";

/**
 * A version of the horizon model: how a candidate horizon's past windows (`windows` complete, `held` of them held)
 * turn into a confidence, in hundredths rounded down, and whether it meets the target. Integer arithmetic only.
 */
export interface HorizonModelVersion {
  /** Stored in attestations (`attestations.model`, `claim.model`) and in evaluations. */
  id: string;
  /** One sentence: the rule, for people (the model page, docs/model.md). */
  rule: string;
  /** The confidence in hundredths (0–100, rounded down). */
  confidenceHundredths(held: number, windows: number, horizonDays: number): number;
  /** Whether the confidence meets the target (in millionths), compared exactly as integers. */
  meetsTarget(held: number, windows: number, horizonDays: number, targetMillionths: number): boolean;
}

/** v1 (DESIGN §5): the plain share of past windows in which the claim held. */
export const MODEL_V1: HorizonModelVersion = {
  id: "daily-min-windows/v1",
  rule: "the share of past windows of the horizon's length in which the claim held",
  confidenceHundredths: (held, windows) => Math.floor((held * 100) / windows),
  meetsTarget: (held, windows, _h, target) => held * 1e6 >= target * windows,
};

/**
 * v2 (DESIGN §15, docs/model.md): windows of h days that start on consecutive days overlap and mostly share their
 * outcome, so they count as 2·windows/h independent trials; the confidence is Laplace's rule of succession on them,
 * (2·held/h + 1) / (2·windows/h + 2) = (2·held + h) / (2·windows + 2h). It shrinks a share measured on few independent
 * windows towards one half, so a long horizon on a short history no longer claims certainty.
 */
export const MODEL_V2: HorizonModelVersion = {
  id: "daily-min-windows/v2",
  rule: "the share of past windows that held, with each h-day window counted as 2/h of an independent trial and shrunk towards one half (rule of succession)",
  confidenceHundredths: (held, windows, h) => Math.floor(((2 * held + h) * 100) / (2 * windows + 2 * h)),
  meetsTarget: (held, windows, h, target) => (2 * held + h) * 1e6 >= target * (2 * windows + 2 * h),
};

/** Every version, oldest first: each is evaluated side by side (`GET /api/v1/model`). */
export const HORIZON_MODELS: readonly HorizonModelVersion[] = [MODEL_V1, MODEL_V2];

/** The version that issues attestations (docs/model.md says why). */
export const ISSUING_MODEL: HorizonModelVersion = MODEL_V1;

/** Identifies the issuing model in stored attestations (`attestations.model`). */
export const HORIZON_MODEL_ID = ISSUING_MODEL.id;

/** Default candidate horizons, in days (DESIGN §5). */
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
 * The horizon model (DESIGN §5). The claim: "the pool's depth stays at or above `floor × depth at issuance` for
 * `horizonDays` days". For each candidate horizon h, every past day d with a complete window (days d+1 … d+h all
 * observed) is a window; the claim held in it when each of those days' lowest depth is ≥ floor × the lowest depth
 * of day d (the reference, standing in for the depth at issuance). The share of windows in which it held decides:
 * the longest candidate with at least `minWindows` windows and share ≥ `target` is published, and its confidence
 * is that share rounded DOWN to hundredths. A known campaign end caps the horizon at the whole days left until it.
 * Integer arithmetic throughout, so the result is exact and deterministic.
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

  const results: HorizonCandidateResult[] = candidates.map((h) => {
    let windows = 0;
    let held = 0;
    for (const [start, reference] of byDay) {
      const threshold = floor * reference;
      let complete = true;
      let ok = true;
      for (let k = 1; k <= h; k++) {
        const depth = byDay.get(start + k);
        if (depth === undefined) {
          complete = false;
          break;
        }
        if (depth < threshold) ok = false;
      }
      if (!complete) continue;
      windows++;
      if (ok) held++;
    }
    const shareHundredths = windows >= minWindows ? model.confidenceHundredths(held, windows, h) : null;
    const result: HorizonCandidateResult = { horizonDays: h, windows, held, shareHundredths };
    if (shareHundredths === null) result.excludedBy = "too-few-windows";
    else if (!model.meetsTarget(held, windows, h, targetMillionths)) result.excludedBy = "below-target";
    return result;
  });

  let capDays: number | null = null;
  if (parameters.campaignEnds !== undefined && parameters.campaignEnds.length > 0) {
    const now = parameters.now;
    if (now === undefined || !Number.isFinite(now)) {
      throw new HorizonInputError({ field: "now", value: now, expected: "Unix seconds, required with campaignEnds" });
    }
    const future = parameters.campaignEnds.filter((end) => end > now);
    if (future.length > 0) {
      capDays = Math.floor((Math.min(...future) - now) / 86_400);
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
      `the claim held in ${first.held} of ${first.windows} past ${first.horizonDays}-day windows ` +
      `(${first.shareHundredths}%), below the ${targetMillionths / 1e4}% target`,
    candidates: results,
  };
}

/** `1 day`, `2 days`: counts in reasons read as a person would write them. */
function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
