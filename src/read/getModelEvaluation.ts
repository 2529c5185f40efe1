import type { ModelEvaluation } from "../model/evaluateModel";
import { HORIZON_MODELS, HORIZON_MODEL_ID } from "../model/horizon";
import { listModelEvaluations } from "../storage/modelEvaluations";
import type { ReadContext } from "./context";
import { defineSurface } from "./defineSurface";
import { ModelEvaluationSchema } from "./schemas/modelEvaluation";

export type GetModelEvaluationReturnType = {
  /** The model that issues attestations now (`claim.model` of new attestations). */
  model: string;
  /** Unix seconds: when the evaluation was computed (after an issuing pass), or null before the first. */
  computedAt: number | null;
  /** The walk-forward evaluation of that model (docs/model.md), or null before the first issuing pass computed it. */
  evaluation: ModelEvaluation | null;
  /** Every model version evaluated side by side on the same data, oldest first, the issuing one among them. */
  versions: {
    model: string;
    rule: string;
    issuing: boolean;
    computedAt: number | null;
    evaluation: ModelEvaluation | null;
  }[];
};

/**
 * The walk-forward evaluation of the issuing horizon model (docs/model.md), beside every other version's on the same
 * data, as the process that issues last stored them:
 * claims the model would have made as of each past day, scored on observed daily lows once their window closed. It
 * judges the model, never an issued attestation (their `outcome` stays "pending").
 *
 * @param context the {@link ReadContext} (only `db` is read).
 * @returns {@link GetModelEvaluationReturnType}
 */
export async function getModelEvaluation({ db }: Pick<ReadContext, "db">): Promise<GetModelEvaluationReturnType> {
  const stored = new Map((await listModelEvaluations(db)).map((row) => [row.model, row]));
  const versions = HORIZON_MODELS.map((model) => {
    const row = stored.get(model.id);
    return {
      model: model.id,
      rule: model.rule,
      issuing: model.id === HORIZON_MODEL_ID,
      computedAt: row === undefined ? null : Number(row.computed_at),
      evaluation: row === undefined ? null : current(JSON.parse(row.evaluation_json) as ModelEvaluation),
    };
  });
  const issuing = versions.find((version) => version.issuing)!;
  return { model: issuing.model, computedAt: issuing.computedAt, evaluation: issuing.evaluation, versions };
}

/**
 * The stored evaluation, or null when it was written in an older shape (buckets without their effective sample size
 * and interval, no `void` count: scored on the day's low rather than the stated depth, or no interval of the Brier
 * difference): read as not computed until the next issuing pass replaces it.
 */
function current(evaluation: ModelEvaluation): ModelEvaluation | null {
  return typeof evaluation.void === "number" &&
    evaluation.brierDifference90 !== undefined &&
    evaluation.buckets.every((bucket) => typeof bucket.effectiveN === "number" && bucket.interval90 !== undefined)
    ? evaluation
    : null;
}

/** The surface, declared once: `GET /api/v1/model` and the MCP tool `get_model_evaluation` are derived from it. */
export const surface = defineSurface({
  title: "How well the horizon model's confidence holds up",
  label: "Model evaluation",
  description: [
    "The walk-forward evaluation of the model that issues attestations: for each tracked pool and past day, the",
    "claim the model would have made using only the days up to it (asOf, horizon, confidence, floorUsd: half the",
    "depth that day's attestation states, else half the day's low; campaign caps applied), graded once its window",
    "closed by the accuracy record's rule (failed: an observed daily low below floorUsd; else void: a day without",
    "an observed low, counted, not scored; else held). Gives claims, scored, held, void, brier beside baselineBrier",
    "(climatology: each claim forecast by the pooled hold rate of windows of its horizon closed by its day; lower is",
    "better) and brierDifference90 (the 90 % interval of their difference, pools as the independent units), buckets (from, to, n, effectiveN: overlapping windows counted as min(1, 2/h) each, meanConfidence,",
    "holdRate, interval90: its 90 % Wilson interval on effectiveN; calibration), byHorizon (horizon, n, holdRate)",
    "and a sample of scored claims to recompute with get_pool_history (every scored claim: get_model_claims).",
    "evaluation and computedAt are null before the first issuing pass; versions lists every model version's",
    "evaluation on the same data. It judges the model on past data, not any issued attestation.",
  ].join(" "),
  parameters: {},
  tags: ["market"],
  output: ModelEvaluationSchema,
  outputTitle: "ModelEvaluation",
  errors: [429, 500, 503],
  cacheKey: "model",
  read: (context) => getModelEvaluation(context),
});
