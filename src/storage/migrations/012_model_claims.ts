import type { Kysely, Migration } from "kysely";

/**
 * Every scored claim of a model version's latest evaluation, beside its summary: a JSON array ordered by pool, then
 * asOf, then horizon, so `GET /api/v1/model/claims` pages it and the published Brier score recomputes exactly from it.
 * Null for rows written before this migration, until the next evaluation replaces them.
 */
export const modelClaims: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("model_evaluations").addColumn("claims_json", "text").execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable("model_evaluations").dropColumn("claims_json").execute();
  },
};
