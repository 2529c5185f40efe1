import type { Kysely, Migration } from "kysely";

/**
 * The accuracy record (docs/model.md#grading): one row per graded claim, the first attestation of a pool's UTC day,
 * written once by the leader's pass and never changed. It replaces the placeholder table of 003, which no code path
 * ever wrote (so nothing is lost): a row now carries the claim it grades (pool, issuance, horizon, confidence, floor)
 * beside its outcome, so the record is read without the attestations table and survives its retention.
 */
export const accuracyRecord: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropTable("accuracy_records").execute();
    await db.schema
      .createTable("accuracy_records")
      .addColumn("attestation_id", "text", (c) => c.primaryKey())
      .addColumn("chain_id", "integer", (c) => c.notNull())
      .addColumn("address", "text", (c) => c.notNull())
      .addColumn("issued_at", "bigint", (c) => c.notNull())
      /** The UTC day of issued_at: one graded claim per pool and day. */
      .addColumn("issued_day", "text", (c) => c.notNull())
      .addColumn("horizon_days", "integer", (c) => c.notNull())
      .addColumn("confidence_hundredths", "integer", (c) => c.notNull())
      .addColumn("floor_usd", "double precision", (c) => c.notNull())
      .addColumn("outcome", "text", (c) => c.notNull())
      .addColumn("lowest_depth_usd", "double precision")
      .addColumn("lowest_depth_date", "text")
      .addColumn("graded_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("accuracy_records_pool_day_idx")
      .on("accuracy_records")
      .columns(["chain_id", "address", "issued_day"])
      .unique()
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("accuracy_records").execute();
    await db.schema
      .createTable("accuracy_records")
      .addColumn("attestation_id", "text", (c) => c.primaryKey())
      .addColumn("outcome", "text", (c) => c.notNull())
      .addColumn("graded_at", "bigint", (c) => c.notNull())
      .addColumn("lowest_depth_usd", "double precision")
      .execute();
  },
};
