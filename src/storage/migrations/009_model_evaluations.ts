import type { Kysely, Migration } from "kysely";

/**
 * The walk-forward evaluation of each model version, recomputed after every issuing pass and stored as
 * one JSON document per model (the latest replaces the previous), so the API serves it without recomputing.
 */
export const modelEvaluations: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("model_evaluations")
      .addColumn("model", "text", (c) => c.primaryKey())
      .addColumn("computed_at", "bigint", (c) => c.notNull())
      .addColumn("evaluation_json", "text", (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("model_evaluations").execute();
  },
};
