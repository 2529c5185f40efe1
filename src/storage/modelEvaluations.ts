import type { Kysely } from "kysely";
import type { Database, ModelEvaluationRow } from "./schema";

/** One pool's observed daily low: a day the service read on chain (`min_block` set), never a feed's daily point. */
export interface ObservedLow {
  chainId: number;
  address: string;
  day: string;
  minDepthUsd: number;
}

/**
 * Every pool's observed daily lows up to and including `lastDay`, by pool then day: the rows with a block (DESIGN §12:
 * a feed-backfilled day is never counted as a low). One query.
 */
export async function listObservedLows(db: Kysely<Database>, parameters: { lastDay: string }): Promise<ObservedLow[]> {
  const rows = await db
    .selectFrom("pool_daily")
    .select(["chain_id", "address", "day", "min_depth_usd"])
    .where("min_block", "is not", null)
    .where("day", "<=", parameters.lastDay)
    .orderBy("chain_id")
    .orderBy("address")
    .orderBy("day")
    .execute();
  return rows.map((row) => ({
    chainId: Number(row.chain_id),
    address: row.address,
    day: row.day,
    minDepthUsd: row.min_depth_usd,
  }));
}

/** Stores a model's latest evaluation, replacing the previous one. */
export async function saveModelEvaluation(
  db: Kysely<Database>,
  parameters: { model: string; computedAt: number; evaluation: unknown },
): Promise<void> {
  const values = {
    model: parameters.model,
    computed_at: parameters.computedAt,
    evaluation_json: JSON.stringify(parameters.evaluation),
  };
  await db
    .insertInto("model_evaluations")
    .values(values)
    .onConflict((oc) =>
      oc.column("model").doUpdateSet({ computed_at: values.computed_at, evaluation_json: values.evaluation_json }),
    )
    .execute();
}

/** The stored evaluations, one per model version, by model id. */
export async function listModelEvaluations(db: Kysely<Database>): Promise<ModelEvaluationRow[]> {
  return db.selectFrom("model_evaluations").selectAll().orderBy("model").execute();
}
