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
 * Every pool's observed daily lows up to and including `lastDay`, by pool then day: the rows with a block (a
 * feed-backfilled day is never counted as a low). One query.
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

/** Stores a model's latest evaluation and every scored claim of it, replacing the previous ones. */
export async function saveModelEvaluation(
  db: Kysely<Database>,
  parameters: { model: string; computedAt: number; evaluation: unknown; claims?: readonly unknown[] },
): Promise<void> {
  const values = {
    model: parameters.model,
    computed_at: parameters.computedAt,
    evaluation_json: JSON.stringify(parameters.evaluation),
    claims_json: parameters.claims === undefined ? null : JSON.stringify(parameters.claims),
  };
  await db
    .insertInto("model_evaluations")
    .values(values)
    .onConflict((oc) =>
      oc.column("model").doUpdateSet({
        computed_at: values.computed_at,
        evaluation_json: values.evaluation_json,
        claims_json: values.claims_json,
      }),
    )
    .execute();
}

/** The stored evaluations, one per model version, by model id (without their claims). */
export async function listModelEvaluations(db: Kysely<Database>): Promise<Omit<ModelEvaluationRow, "claims_json">[]> {
  return db
    .selectFrom("model_evaluations")
    .select(["model", "computed_at", "evaluation_json"])
    .orderBy("model")
    .execute();
}

/** One model version's stored scored claims (the JSON array) and when they were computed; undefined before any. */
export async function findModelClaims(
  db: Kysely<Database>,
  model: string,
): Promise<Pick<ModelEvaluationRow, "computed_at" | "claims_json"> | undefined> {
  return db
    .selectFrom("model_evaluations")
    .select(["computed_at", "claims_json"])
    .where("model", "=", model)
    .executeTakeFirst();
}
