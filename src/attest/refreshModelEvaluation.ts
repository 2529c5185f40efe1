import type { Kysely } from "kysely";
import { formatPoolId } from "../lib/formatPoolId";
import {
  evaluateModelWithClaims,
  publishedClaim,
  type EvaluatedPool,
  type ModelEvaluation,
  type ScoredClaim,
} from "../model/evaluateModel";
import { DEFAULT_CANDIDATES, HORIZON_MODELS, ISSUING_MODEL } from "../model/horizon";
import { listObservedLows, saveModelEvaluation } from "../storage/modelEvaluations";
import { utcDay } from "../storage/poolDaily";
import type { Database } from "../storage/schema";
import { CLAIM_FLOOR, CLAIM_TARGET } from "./issueAttestations";

/** The rule the issuer applies (docs/data.md#the-horizon-model), as the evaluation replays it. */
export const ISSUER_RULE = { floor: CLAIM_FLOOR, target: CLAIM_TARGET, candidates: DEFAULT_CANDIDATES } as const;

/**
 * Recomputes the walk-forward evaluation of every model version (`HORIZON_MODELS`, the issuing one among them) from the
 * store's observed daily lows up to yesterday and stores each under its id, with every scored claim (by
 * pool, asOf, horizon) so that `GET /api/v1/model/claims` publishes them. The process that issues runs
 * it after each issuing pass. It reads lows and writes one row per version: no attestation, outcome or signature is
 * touched.
 *
 * @param db the store.
 * @param parameters `now`, Unix seconds (yesterday is the last complete day).
 * @returns the issuing model's evaluation.
 */
export async function refreshModelEvaluation(
  db: Kysely<Database>,
  parameters: { now: number },
): Promise<ModelEvaluation> {
  const lastDay = utcDay(parameters.now - 86_400);
  const pools = await readEvaluatedPools(db, { lastDay });
  let issuing: ModelEvaluation | null = null;
  for (const model of HORIZON_MODELS) {
    const { evaluation, scored } = evaluateModelWithClaims(pools, { ...ISSUER_RULE, model }, lastDay);
    const claims = [...scored].sort(byPoolDayHorizon).map(publishedClaim);
    await saveModelEvaluation(db, { model: model.id, computedAt: parameters.now, evaluation, claims });
    if (model === ISSUING_MODEL) issuing = evaluation;
  }
  return issuing!;
}

/** The published order of scored claims: by pool, then asOf, then horizon (code-unit order of the strings). */
function byPoolDayHorizon(a: ScoredClaim, b: ScoredClaim): number {
  if (a.pool !== b.pool) return a.pool < b.pool ? -1 : 1;
  if (a.asOf !== b.asOf) return a.asOf < b.asOf ? -1 : 1;
  return a.horizon - b.horizon;
}

/** Every pool's observed daily lows up to `lastDay`, as the evaluation takes them (one query). */
export async function readEvaluatedPools(
  db: Kysely<Database>,
  parameters: { lastDay: string },
): Promise<EvaluatedPool[]> {
  const pools = new Map<string, EvaluatedPool & { daily: { day: string; minDepthUsd: number }[] }>();
  for (const low of await listObservedLows(db, parameters)) {
    const pool = formatPoolId({ chainId: low.chainId, address: low.address });
    const entry = pools.get(pool) ?? { pool, daily: [] };
    entry.daily.push({ day: low.day, minDepthUsd: low.minDepthUsd });
    pools.set(pool, entry);
  }
  return [...pools.values()];
}
