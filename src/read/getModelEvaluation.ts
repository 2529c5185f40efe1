import type { ModelEvaluation } from "../model/evaluateModel";
import { HORIZON_MODEL_ID } from "../model/horizon";
import { listModelEvaluations } from "../storage/modelEvaluations";
import type { ReadContext } from "./context";

export type GetModelEvaluationReturnType = {
  /** The model that issues attestations now (`claim.model` of new attestations). */
  model: string;
  /** Unix seconds: when the evaluation was computed (after an issuing pass), or null before the first. */
  computedAt: number | null;
  /** The walk-forward evaluation of that model (DESIGN §15), or null before the first issuing pass computed it. */
  evaluation: ModelEvaluation | null;
};

/**
 * The walk-forward evaluation of the issuing horizon model (DESIGN §15), as the process that issues last stored it:
 * claims the model would have made as of each past day, scored on observed daily lows once their window closed. It
 * judges the model, never an issued attestation (their `outcome` stays "pending").
 *
 * @param context the {@link ReadContext} (only `db` is read).
 * @returns {@link GetModelEvaluationReturnType}
 */
export async function getModelEvaluation({ db }: Pick<ReadContext, "db">): Promise<GetModelEvaluationReturnType> {
  const stored = (await listModelEvaluations(db)).find((row) => row.model === HORIZON_MODEL_ID);
  if (stored === undefined) return { model: HORIZON_MODEL_ID, computedAt: null, evaluation: null };
  return {
    model: HORIZON_MODEL_ID,
    computedAt: Number(stored.computed_at),
    evaluation: JSON.parse(stored.evaluation_json) as ModelEvaluation,
  };
}
