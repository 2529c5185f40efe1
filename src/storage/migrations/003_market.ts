import { PostgresAdapter, type Kysely, type Migration } from "kysely";

/**
 * The market read API (docs/market-api.md): the activity log, per-pool daily volume from `Swap` logs with a block
 * cursor per pool, each dimension's own observation time, the stale/fresh state that transitions are read against,
 * cached prices, API keys and idempotent keyed writes, the liquidity requests' final shape, and the (empty) accuracy
 * record.
 */
export const market: Migration = {
  async up(db: Kysely<unknown>) {
    await createActivityAndVolume(db);
    await createMarketState(db);
    await createKeyedWrites(db);
  },

  async down(db: Kysely<unknown>) {
    for (const table of [
      "accuracy_records",
      "campaign_announcements",
      "idempotency_keys",
      "api_keys",
      "token_prices",
      "log_cursors",
      "pool_volume_hourly",
      "pool_volume_daily",
      "activity_events",
    ]) {
      await db.schema.dropTable(table).execute();
    }
    await db.schema.dropTable("liquidity_requests").execute();
    await db.schema
      .createTable("liquidity_requests")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("chain_id", "integer", (c) => c.notNull())
      .addColumn("address", "text", (c) => c.notNull())
      .addColumn("amount_usd", "double precision", (c) => c.notNull())
      .addColumn("horizon_days", "integer", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    for (const column of ["freshness_state", "exitable_observed_at", "apy_observed_at"]) {
      await db.schema.alterTable("pools").dropColumn(column).execute();
    }
  },
};

/** The activity log and the per-pool volume read from `Swap` logs (by day, and by hour for the rolling 24 h). */
async function createActivityAndVolume(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // Append-only; ids grow monotonically (SQLite AUTOINCREMENT never reuses one), so a cursor is an id.
  await db.schema
    .createTable("activity_events")
    .addColumn("id", postgres ? "bigserial" : "integer", (c) =>
      postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("at", "bigint", (c) => c.notNull())
    .addColumn("chain_id", "integer")
    .addColumn("address", "text")
    .addColumn("summary", "text", (c) => c.notNull())
    .addColumn("data_json", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("activity_events_kind_idx").on("activity_events").columns(["kind", "id"]).execute();

  await db.schema
    .createTable("pool_volume_daily")
    .addColumn("chain_id", "integer", (c) => c.notNull())
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("volume_usd", "double precision", (c) => c.notNull())
    .addColumn("swaps", "integer", (c) => c.notNull())
    .addColumn("first_block", "text", (c) => c.notNull())
    .addColumn("last_block", "text", (c) => c.notNull())
    .addColumn("observed_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("pool_volume_daily_pk", ["chain_id", "address", "day"])
    .execute();
  await db.schema.createIndex("pool_volume_daily_day_idx").on("pool_volume_daily").column("day").execute();

  // The same volume by UTC hour, kept for a few days only: the rolling 24 h figure sums the last 24 hours.
  await db.schema
    .createTable("pool_volume_hourly")
    .addColumn("chain_id", "integer", (c) => c.notNull())
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("hour", "bigint", (c) => c.notNull())
    .addColumn("volume_usd", "double precision", (c) => c.notNull())
    .addColumn("swaps", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("pool_volume_hourly_pk", ["chain_id", "address", "hour"])
    .execute();
  await db.schema.createIndex("pool_volume_hourly_hour_idx").on("pool_volume_hourly").column("hour").execute();

  // Where each log reader resumes: the first block not read yet (decimal text), per source and contract, and the
  // timestamp of the last block read (the days between it and the next read's end are covered by that read).
  await db.schema
    .createTable("log_cursors")
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("chain_id", "integer", (c) => c.notNull())
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("next_block", "text", (c) => c.notNull())
    .addColumn("last_block_time", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("log_cursors_pk", ["source", "chain_id", "address"])
    .execute();
}

/** Each dimension's own observation time, the stale/fresh state, campaign announcements and cached prices. */
async function createMarketState(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("pools").addColumn("apy_observed_at", "bigint").execute();
  await db.schema.alterTable("pools").addColumn("exitable_observed_at", "bigint").execute();
  // "fresh" | "stale" as of the last pass: a pass that finds it changed writes pool.fresh / pool.stale.
  await db.schema.alterTable("pools").addColumn("freshness_state", "text").execute();

  await db.schema
    .createTable("campaign_announcements")
    .addColumn("campaign_id", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("campaign_announcements_pk", ["campaign_id", "kind"])
    .execute();

  await db.schema
    .createTable("token_prices")
    .addColumn("chain_id", "integer", (c) => c.notNull())
    .addColumn("token", "text", (c) => c.notNull())
    .addColumn("price_usd", "double precision", (c) => c.notNull())
    .addColumn("observed_at", "bigint", (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("token_prices_pk", ["chain_id", "token"])
    .execute();
}

/** API keys, idempotent keyed writes, the liquidity requests' final shape and the (empty) accuracy record. */
async function createKeyedWrites(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("api_keys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("key_sha256", "text", (c) => c.notNull().unique())
    .addColumn("owner", "text", (c) => c.notNull())
    .addColumn("label", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("revoked_at", "bigint")
    .execute();

  await db.schema
    .createTable("idempotency_keys")
    .addColumn("api_key_id", "text", (c) => c.notNull())
    .addColumn("idempotency_key", "text", (c) => c.notNull())
    .addColumn("request_sha256", "text", (c) => c.notNull())
    .addColumn("status", "integer", (c) => c.notNull())
    .addColumn("response_json", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("idempotency_keys_pk", ["api_key_id", "idempotency_key"])
    .execute();

  // The table shipped empty with no write path: it takes its final shape (a pool or an asset) before the first row.
  await db.schema.dropTable("liquidity_requests").execute();
  await db.schema
    .createTable("liquidity_requests")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("chain_id", "integer", (c) => c.notNull())
    .addColumn("pool_address", "text")
    .addColumn("asset_address", "text")
    .addColumn("amount_usd", "double precision", (c) => c.notNull())
    .addColumn("horizon_days", "integer", (c) => c.notNull())
    .addColumn("note", "text")
    .addColumn("api_key_id", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();

  // Graded claims. Nothing grades yet, so it stays empty; the roadmap and the launch gates count it.
  await db.schema
    .createTable("accuracy_records")
    .addColumn("attestation_id", "text", (c) => c.primaryKey())
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("graded_at", "bigint", (c) => c.notNull())
    .addColumn("lowest_depth_usd", "double precision")
    .execute();
}
