import type { Kysely, Migration } from "kysely";

/**
 * One fenced leader among workers (docs/operations.md#leadership-and-fencing):
 * - `leases`: one row per named lease (`ingest`): its holder (an `INSTANCE_ID`), the epoch that grows with every
 *   takeover (the fence a pass's transactions check) and when it expires (Unix ms);
 * - `ingest_runs.instance_id` (null on rows from before) and `heartbeat_at` (Unix seconds, renewed during the pass;
 *   null on rows from before, read as `started_at`): a run is closed as interrupted only when its heartbeat is old;
 * - `attestations.supersedes`: the id of the pool's latest attestation when this one was issued (`none` for the
 *   pool's first; null on rows from before), unique per pool: a pool's attestation has at most one successor, so two
 *   leaders that read the same state cannot both issue (the second insert is a no-op).
 */
export const leader: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("leases")
      .addColumn("name", "text", (c) => c.primaryKey())
      .addColumn("holder", "text", (c) => c.notNull())
      .addColumn("epoch", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .addColumn("renewed_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.alterTable("ingest_runs").addColumn("instance_id", "text").execute();
    await db.schema.alterTable("ingest_runs").addColumn("heartbeat_at", "bigint").execute();
    await db.schema.createIndex("ingest_runs_status_idx").on("ingest_runs").column("status").execute();
    await db.schema.alterTable("attestations").addColumn("supersedes", "text").execute();
    await db.schema
      .createIndex("attestations_successor_idx")
      .unique()
      .on("attestations")
      .columns(["chain_id", "address", "supersedes"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex("attestations_successor_idx").execute();
    await db.schema.alterTable("attestations").dropColumn("supersedes").execute();
    await db.schema.dropIndex("ingest_runs_status_idx").execute();
    await db.schema.alterTable("ingest_runs").dropColumn("heartbeat_at").execute();
    await db.schema.alterTable("ingest_runs").dropColumn("instance_id").execute();
    await db.schema.dropTable("leases").execute();
  },
};
