import * as z from "zod/v4";
import { nullable, poolId, uint, utcDate } from "./common";

/** `get_model_claims` (`GET /api/v1/model/claims`): every scored claim of the issuing model's latest evaluation. */
export const ModelClaimsSchema = z.strictObject({
  model: z.string().describe("the model issuing attestations now (claim.model): these are its evaluation's claims"),
  computedAt: nullable(uint("Unix seconds: when the evaluation was computed"), "null before the first issuing pass"),
  scored: uint("every scored claim (held or failed) over all pages: the evaluation's scored"),
  claims: z
    .array(
      z.strictObject({
        pool: poolId(),
        asOf: utcDate("the day the claim is made as of: it used only the days up to and including this one"),
        horizon: uint("days"),
        confidence: z.number().min(0).max(1).describe("with two fraction digits"),
        floorUsd: z
          .number()
          .describe(
            "USD: floor × the depth the first attestation issued that day states (the history's depthUsd), or × the day's lowest observed depth when none was issued",
          ),
        outcome: z
          .enum(["held", "failed"])
          .describe(
            "the accuracy record's rule: failed when an observed daily low of the next horizon days is below floorUsd; else held when every one of them has an observed low (a claim with a day without one is void: counted in the evaluation's void, not listed)",
          ),
      }),
    )
    .describe(
      "this page, by pool then asOf then horizon; over all pages the evaluation's brier is the mean of (confidence − outcome)², outcome 1 when held, rounded to 6 decimals",
    ),
  next: nullable(z.string(), "cursor of the next page: pass it as `cursor`, unchanged; null on the last"),
});
