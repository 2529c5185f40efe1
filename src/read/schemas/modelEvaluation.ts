import * as z from "zod/v4";
import { nullable, poolId, uint, utcDate } from "./common";

const share = (description: string) => z.number().min(0).max(1).describe(description);

/** A calibration bucket: claims that held or failed, by confidence (the model evaluation's and the accuracy record's). */
export const CalibrationBucketSchema = z.strictObject({
  from: share("bucket's lowest confidence (included)"),
  to: share("bucket's upper bound (excluded, except 1)"),
  n: uint("scored claims in the bucket"),
  effectiveN: z
    .number()
    .min(0)
    .describe(
      "effective sample size: claims of one pool on consecutive days overlap, so an h-day claim counts as min(1, 2/h) of an independent one",
    ),
  meanConfidence: share("their mean confidence"),
  holdRate: share("the share of them that held"),
  interval90: z
    .strictObject({ low: share("lower bound"), high: share("upper bound") })
    .describe("the 90 % Wilson interval of holdRate on effectiveN"),
});

/** Held and failed claims of one horizon. */
export const ByHorizonSchema = z.strictObject({
  horizon: uint("days"),
  n: uint("scored claims of this horizon"),
  holdRate: share("the share of them that held"),
});

const EvaluationSchema = z.strictObject({
  asOf: nullable(utcDate(), "the last complete UTC day the evaluation saw; null with no history"),
  claims: uint("claims the model would have made, one per pool and past day with a horizon"),
  scored: uint(
    "claims whose window has closed and that held or failed (the accuracy record's rule): the ones the scores count",
  ),
  held: uint("scored claims that held: every day of the window has an observed low at or above the floor"),
  void: uint(
    "claims whose window closed with no observed low below the floor but a day without an observed low: never held, not scored, not listed",
  ),
  brier: nullable(share("mean of (confidence − outcome)² over scored claims, 0 best"), "null when nothing is scored"),
  baselineBrier: nullable(
    share(
      "the Brier score of the climatology on the same scored claims: each forecast the pooled hold rate of all pools' windows of its horizon closed by its asOf day (0.5 where none had); the model must beat it",
    ),
    "null when nothing is scored",
  ),
  brierDifference90: nullable(
    z
      .strictObject({ low: z.number().describe("lower bound"), high: z.number().describe("upper bound") })
      .describe(
        "the 90 % interval of brier − baselineBrier, the pools taken as the independent units (a pool's claims share days): wholly below 0 when the model beats the climatology by more than chance, across 0 when the two are level",
      ),
    "null when nothing is scored or fewer than two pools are",
  ),
  buckets: z
    .array(CalibrationBucketSchema)
    .describe("calibration: scored claims by confidence, in buckets of 0.05 (empty buckets left out)"),
  byHorizon: z.array(ByHorizonSchema).describe("scored claims by horizon"),
  sample: z
    .array(
      z.strictObject({
        pool: poolId(),
        asOf: utcDate("the day the claim is made as of: it used only the days up to and including this one"),
        horizon: uint("days"),
        confidence: share("with two fraction digits"),
        floorUsd: z
          .number()
          .describe(
            "USD: floor × the depth the first attestation issued that day states (the history's depthUsd), or × the day's lowest observed depth when none was issued",
          ),
        held: z
          .boolean()
          .describe(
            "true: every one of the next horizon days has an observed low at or above floorUsd; false: one below",
          ),
      }),
    )
    .describe("at least 200 scored claims spread over all of them (all when fewer), to recompute from the history API"),
});

/** `get_model_evaluation` (`GET /api/v1/model`): the walk-forward evaluation of the issuing model (docs/model.md). */
export const ModelEvaluationSchema = z.strictObject({
  model: z.string().describe("the model issuing attestations now (claim.model)"),
  computedAt: nullable(uint("Unix seconds"), "null before the first issuing pass computed it"),
  evaluation: nullable(EvaluationSchema, "null before the first issuing pass computed it"),
  versions: z
    .array(
      z.strictObject({
        model: z.string().describe("the version's id"),
        rule: z.string().describe("its rule in one sentence"),
        issuing: z.boolean().describe("whether this version issues attestations now"),
        computedAt: nullable(uint("Unix seconds"), "null before the first issuing pass computed it"),
        evaluation: nullable(EvaluationSchema, "null before the first issuing pass computed it"),
      }),
    )
    .describe("every model version evaluated side by side on the same data, oldest first"),
});
