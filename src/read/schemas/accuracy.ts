import * as z from "zod/v4";
import { SignedAttestationSchema } from "./attestation";
import { nullable, poolId, uint, utcDate } from "./common";
import { CalibrationBucketSchema, ByHorizonSchema } from "./modelEvaluation";

const claimFields = {
  issuedAt: uint("Unix seconds: when the attestation was issued (signed)"),
  horizon: uint("days (signed)"),
  confidence: z.number().min(0).max(1).describe("signed, with two fraction digits"),
  floorUsd: z.number().describe("USD: floor × the depth the attestation states (the history's depthUsd of its day)"),
  settlesAt: uint(
    "Unix seconds: issuedAt + horizon days; the window is the UTC days after the issuance day up to this one",
  ),
  lowestDepthUsd: nullable(
    z.number(),
    "USD: failed: the first window day's observed low below floorUsd; held: the window's lowest observed low; null when pending or void",
  ),
  lowestDepthDate: nullable(utcDate("the day of lowestDepthUsd"), "null with it"),
};

const outcomeDescription =
  "failed: an observed daily low of a window day is below floorUsd; void: a window day has no observed low (and none failed); held: every window day observed at or above floorUsd. Graded once, never changed";

/**
 * `get_accuracy_record` (`GET /api/v1/accuracy`): every graded claim's scores and the latest ones. The reader's
 * declaration (`surface` in ../getAccuracy.ts) checks that its answer has this shape.
 */
export const AccuracySchema = z.strictObject({
  asOf: nullable(utcDate("the settle day of the last graded claim"), "null while nothing is graded"),
  graded: uint("claims graded: held + failed + void"),
  held: uint("claims held"),
  failed: uint("claims failed"),
  void: uint("claims void: left out of the scores"),
  brier: nullable(
    z.number().min(0).max(1),
    "mean of (confidence − outcome)², held 1, failed 0, void left out; null when none",
  ),
  buckets: z
    .array(CalibrationBucketSchema)
    .describe("held and failed claims by confidence, 0.05 wide; empty ones left out"),
  byHorizon: z.array(ByHorizonSchema),
  recent: z
    .array(
      z.strictObject({
        pool: poolId(),
        ...claimFields,
        outcome: z.enum(["held", "failed", "void"]).describe(outcomeDescription),
      }),
    )
    .describe("the latest graded claims, latest settle first (at most 20)"),
});

/** `get_pool_claims` (`GET /api/v1/pool/{pool}/claims`): a pool's claims, newest first, with their grades. */
export const PoolClaimsSchema = z.strictObject({
  pool: poolId(),
  claims: z
    .array(
      z.strictObject({
        ...claimFields,
        outcome: z
          .enum(["pending", "held", "failed", "void"])
          .describe(`pending until the settle day is over and graded; ${outcomeDescription}`),
        attestation: SignedAttestationSchema,
      }),
    )
    .describe("the pool's graded claims (its first attestation of each UTC day), newest first, 100 a page"),
  next: nullable(z.string(), "cursor of the next page: pass it as `cursor`, unchanged; null on the last"),
});
