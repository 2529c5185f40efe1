/**
 * Issue 28's four targets for a set of synthetic pools, and the documented reading of them (docs/model.md, "How the
 * targets are read"): what `npm run bench:families` prints as each set's verdict and counts over the sets.
 */
import { wilsonInterval } from "../src/model/evaluateModel";
import { normalCdf } from "../src/model/normal";

/** One version's figures on one set (a family, or the mixed set), as `npm run bench:families` prints them. */
export interface SetRow {
  family: string;
  model: string;
  poolDays: number;
  claims: number;
  /** Pool-days on which the process was calm, and how many of them the version made a claim on. */
  calmDays: number;
  calmClaims: number;
  scored: number;
  promisedFailure: number;
  observedFailure: number;
  brier: number;
  climatology: number;
  /** The 90 % interval of brier − climatology, pools taken as the independent units (the evaluation's). */
  difference90: { low: number; high: number } | null;
  buckets: { from: number; n: number; effective: number; mean: number; held: number }[];
  horizons: {
    horizon: number;
    n: number;
    mean: number;
    held: number;
    climatology: number;
    brier: number;
    climatologyBrier: number;
  }[];
}

/** The bucket target's tolerance: a bucket of effective n ≥ 30 within this of its hold rate. */
export const BUCKET_TOLERANCE = 0.05;

/**
 * How a version's buckets of effective n ≥ 30 fare against the bucket target over the sets: how many there are, how
 * many are off by more than {@link BUCKET_TOLERANCE}, and how many a calibrated forecaster would have off by chance
 * (each bucket's hold rate read as normal about its mean confidence with variance c(1 − c)/effective n).
 */
export function bucketChance(rows: readonly SetRow[]): { buckets: number; off: number; expected: number } {
  let buckets = 0;
  let off = 0;
  let expected = 0;
  for (const row of rows) {
    for (const b of row.buckets) {
      if (b.effective < 30) continue;
      buckets++;
      if (Math.abs(b.held - b.mean) > BUCKET_TOLERANCE) off++;
      const sd = Math.sqrt((b.mean * (1 - b.mean)) / b.effective);
      if (sd > 0) expected += 2 * normalCdf(-BUCKET_TOLERANCE / sd);
    }
  }
  return { buckets, off, expected };
}

/**
 * The least failure share a signed confidence can promise: it is in hundredths, rounded down, so at most 0.99. Where
 * fewer claims fail than that, "nothing fails" at the resolution of what is signed, and the Brier target's exception
 * applies: a claim that holds costs a signed confidence at least 0.01², a climatology above 0.99 almost nothing.
 */
export const LEAST_PROMISED_FAILURE = 0.01;

/**
 * Families where a forecaster told the family's law, reading every drop in a pool's past, does no better than the
 * climatology (level or worse on seeds 1–8: `npm run bench:jumps-bound`, docs/model.md "Jumps: what no forecaster can
 * see"): there, a Brier score level with the climatology's (the difference's 90 % interval holds 0) is what the pools'
 * past allows.
 */
export const LAW_BOUND_LEVEL: readonly string[] = ["jumps"];

/**
 * A set's misses against the four targets of issue 28, each with the documented reading that excuses it, or null
 * (docs/model.md "How the targets are read"): a bucket off by > 0.05 whose hold rate's 90 % Wilson interval on its
 * effective n holds its mean confidence (chance explains it); a Brier score not below the climatology's where under
 * {@link LEAST_PROMISED_FAILURE} of claims failed, or level with it on a {@link LAW_BOUND_LEVEL} family.
 */
export function misses(row: SetRow): { target: string; excused: string | null }[] {
  const found: { target: string; excused: string | null }[] = [];
  if (row.observedFailure > row.promisedFailure + 0.02)
    found.push({ target: "fails more than promised", excused: null });
  const off = row.buckets.filter((b) => b.effective >= 30 && Math.abs(b.held - b.mean) > BUCKET_TOLERANCE);
  if (off.length > 0) {
    const chance = off.every((b) => {
      const interval = wilsonInterval(b.held, b.effective);
      return interval.low <= b.mean && b.mean <= interval.high;
    });
    found.push({ target: "a bucket off by > 0.05", excused: chance ? "inside its 90 % interval" : null });
  }
  if (row.observedFailure > 0 && !(row.brier < row.climatology)) {
    const level = row.difference90 !== null && row.difference90.low <= 0 && row.difference90.high >= 0;
    const excused =
      row.observedFailure < LEAST_PROMISED_FAILURE
        ? `under ${100 * LEAST_PROMISED_FAILURE} % failed`
        : level && LAW_BOUND_LEVEL.includes(row.family)
          ? "level; the law's forecaster is no better"
          : null;
    found.push({ target: "Brier not below climatology", excused });
  }
  if (row.calmClaims < 0.3 * row.calmDays)
    found.push({ target: "claims on under 30 % of calm pool-days", excused: null });
  return found;
}
