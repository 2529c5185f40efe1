import {
  calibratedProbability,
  logisticConfidence,
  MIN_EFFECTIVE_WINDOWS,
  PRIOR_PROBABILITY,
  type Calibration,
} from "./calibration";
import { pooledPriorProbability } from "./pooledPrior";
import { MODEL_V1, MODEL_V2, MODEL_V3, marginScore, type HorizonModelVersion, type WindowStats } from "./versions";

/**
 * A pooled version's confidence and target check from its probability of a candidate, or `"v2"` where it falls back
 * to v2's integer rule: rounded down to hundredths, compared in millionths.
 */
function pooledRule(
  probability: (stats: WindowStats, floor: number, calibration?: readonly Calibration[]) => number | "v2",
): Pick<HorizonModelVersion, "confidenceHundredths" | "meetsTarget"> {
  return {
    confidenceHundredths: (stats, floor, calibration) => {
      const p = probability(stats, floor, calibration);
      return p === "v2" ? MODEL_V2.confidenceHundredths(stats, floor) : Math.floor(p * 100 + 1e-9);
    },
    meetsTarget: (stats, floor, target, calibration) => {
      const p = probability(stats, floor, calibration);
      return p === "v2" ? MODEL_V2.meetsTarget(stats, floor, target) : p * 1e6 >= target;
    },
  };
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
  ...pooledRule((stats, floor, calibration) => {
    const map = pooledMap(stats, calibration);
    return map === undefined ? "v2" : calibratedProbability(map, marginScore(stats, floor));
  }),
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
  ...pooledRule((stats, floor, calibration) => {
    const basis = v5Basis(stats, calibration);
    return basis === "v2" ? "v2" : v5Probability(basis, stats, floor);
  }),
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
 * v6 (docs/model.md#v6-the-margin-and-the-recent-volatility): the mean of two pooled maps of the horizon, both fitted on
 * other pools' windows closed by the day: v4's monotone map of v3's margin score, and a logistic regression on that
 * score and the pool's recent volatility (`recentVolatility` in ./volatility, `logisticMap` in ./calibration). The
 * volatility sees what a pool's past windows cannot (a calm pool entering a stressed week); the mean keeps the
 * logistic's smooth shape from promising more than the margin's map where the two disagree. Thin evidence claims short
 * or nothing: where the horizon's pooled evidence is too thin to fit, the shortest candidate reads v5's pooled prior
 * and a longer one makes no claim; a lone pool (no other pool's window at all) reads v2, as v4 and v5 do. Rounded down
 * to hundredths.
 */
export const MODEL_V6: HorizonModelVersion = {
  id: "daily-min-margin-volatility/v6",
  rule: "the mean of two maps fitted per horizon on other pools' windows closed by the day: v4's (how often windows with a like margin score held) and a logistic regression on the margin score and the pool's recent volatility; where that evidence is too thin to fit, the shortest horizon reads the pool's own windows shrunk towards the pooled hold rate (never above it) and longer ones claim nothing; a lone pool reads v2",
  ...logisticRule("mean"),
};

/**
 * v7 (docs/model.md#v7-the-logistic-map-alone): v6's logistic regression on the margin score and the pool's recent
 * volatility, alone, without the mean with v4's monotone map; thin evidence as v6 (the pooled prior on the shortest
 * candidate, no claim on a longer one, v2 for a lone pool). v4's map must rise with the margin score, and a pool past
 * its cliff has a low score and little risk left: the mean read such pools under their hold rate, and v7 does not.
 * Rounded down to hundredths.
 */
export const MODEL_V7: HorizonModelVersion = {
  id: "daily-min-margin-logistic/v7",
  rule: "a logistic regression fitted per horizon on other pools' windows closed by the day, on the margin score and the pool's recent volatility; where that evidence is too thin to fit, the shortest horizon reads the pool's own windows shrunk towards the pooled hold rate (never above it) and longer ones claim nothing; a lone pool reads v2",
  ...logisticRule("logistic"),
};

/**
 * v6's (`"mean"`) or v7's (`"logistic"`) pooled rule: maps fitted with the logistic fit, then {@link v6Basis} and
 * {@link v6Probability}.
 */
function logisticRule(
  maps: "mean" | "logistic",
): Pick<HorizonModelVersion, "pooled" | "pooledFit" | "confidenceHundredths" | "meetsTarget"> {
  return {
    pooled: true,
    pooledFit: "logistic",
    ...pooledRule((stats, floor, calibration) => {
      const basis = v6Basis(stats, calibration);
      return basis === "v2" ? "v2" : v6Probability(basis, stats, floor, maps);
    }),
  };
}

/**
 * v6's and v7's basis: the horizon's fitted map; a lone pool (no pooled window of any horizon) v2; else, where the map
 * is too thin, v5's pooled prior on the shortest candidate and no claim on a longer one.
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

/** v6's probability (`"mean"`: the logistic map's and v4's, averaged) or v7's (`"logistic"`: the logistic map's). */
function v6Probability(
  basis: { map: Calibration } | { prior: Calibration | undefined } | "none",
  stats: WindowStats,
  floor: number,
  maps: "mean" | "logistic",
): number {
  if (basis === "none") return PRIOR_PROBABILITY;
  if (!("map" in basis)) return pooledPriorProbability(stats, basis.prior);
  if (basis.map.logistic === undefined) {
    // A programming error, not an input one: the maps were fitted without v6's logistic fit.
    throw new Error(
      "v6 and v7 read the logistic map: fit the calibration with the rule's model (PooledCalibrations, fitCalibration)",
    );
  }
  const score = marginScore(stats, floor);
  const logistic = logisticConfidence(basis.map, score, stats.volatility ?? Number.NaN);
  return maps === "logistic" ? logistic : (logistic + calibratedProbability(basis.map, score)) / 2;
}

/** Every version, oldest first: each is evaluated side by side (`GET /api/v1/model`). */
export const HORIZON_MODELS: readonly HorizonModelVersion[] = [
  MODEL_V1,
  MODEL_V2,
  MODEL_V3,
  MODEL_V4,
  MODEL_V5,
  MODEL_V6,
  MODEL_V7,
];

/** The version that issues attestations (docs/model.md says why). */
export const ISSUING_MODEL: HorizonModelVersion = MODEL_V7;

/** Identifies the issuing model in stored attestations (`attestations.model`). */
export const HORIZON_MODEL_ID = ISSUING_MODEL.id;
