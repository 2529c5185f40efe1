import type { Kysely, Migration } from "kysely";

/** The initial schema (see `../schema.ts`). Portable between SQLite and PostgreSQL. */
export const initial: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("pools")
      .addColumn("chain_id", "integer", (c) => c.notNull())
      .addColumn("address", "text", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("symbol", "text", (c) => c.notNull())
      .addColumn("protocol", "text", (c) => c.notNull())
      .addColumn("defillama_id", "text")
      .addColumn("merkl_id", "text")
      .addColumn("depth_usd", "double precision")
      .addColumn("depth_observed_at", "bigint")
      .addColumn("depth_block", "text")
      .addColumn("exitable_usd", "double precision")
      .addColumn("state_json", "text")
      .addColumn("supply_rate_percent", "double precision")
      .addColumn("supply_rate_observed_at", "bigint")
      .addColumn("tvl_usd", "double precision")
      .addColumn("apy_percent", "double precision")
      .addColumn("feed_observed_at", "bigint")
      .addColumn("volume_24h_usd", "double precision")
      .addColumn("volume_observed_at", "bigint")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("pools_pk", ["chain_id", "address"])
      .execute();
    await db.schema.createIndex("pools_address_idx").on("pools").column("address").execute();

    await db.schema
      .createTable("pool_daily")
      .addColumn("chain_id", "integer", (c) => c.notNull())
      .addColumn("address", "text", (c) => c.notNull())
      .addColumn("day", "text", (c) => c.notNull())
      .addColumn("min_depth_usd", "double precision", (c) => c.notNull())
      .addColumn("min_observed_at", "bigint", (c) => c.notNull())
      .addColumn("min_block", "text")
      .addColumn("last_observed_at", "bigint", (c) => c.notNull())
      .addColumn("samples", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("pool_daily_pk", ["chain_id", "address", "day"])
      .execute();

    await db.schema
      .createTable("attestations")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("chain_id", "integer", (c) => c.notNull())
      .addColumn("address", "text", (c) => c.notNull())
      .addColumn("issued_at", "bigint", (c) => c.notNull())
      .addColumn("expiry", "bigint", (c) => c.notNull())
      .addColumn("horizon_days", "integer", (c) => c.notNull())
      .addColumn("confidence_hundredths", "integer", (c) => c.notNull())
      .addColumn("canonical", "text", (c) => c.notNull())
      .addColumn("signature", "text", (c) => c.notNull())
      .addColumn("attester", "text", (c) => c.notNull())
      .addColumn("floor", "double precision", (c) => c.notNull())
      .addColumn("depth_at_issuance_usd", "double precision", (c) => c.notNull())
      .addColumn("model", "text", (c) => c.notNull())
      .addColumn("inputs_hash", "text", (c) => c.notNull())
      .addColumn("outcome", "text", (c) => c.notNull())
      .addColumn("eip712_json", "text")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("attestations_pool_idx")
      .on("attestations")
      .columns(["chain_id", "address", "issued_at"])
      .execute();

    await db.schema
      .createTable("campaigns")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("chain_id", "integer", (c) => c.notNull())
      .addColumn("opportunity_id", "text", (c) => c.notNull())
      .addColumn("identifier", "text", (c) => c.notNull())
      .addColumn("name", "text")
      .addColumn("type", "text")
      .addColumn("status", "text")
      .addColumn("reward_token", "text")
      .addColumn("amount", "text")
      .addColumn("apr_percent", "double precision")
      .addColumn("start_ts", "bigint")
      .addColumn("end_ts", "bigint")
      .addColumn("observed_at", "bigint", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("dex_volumes")
      .addColumn("chain", "text", (c) => c.notNull())
      .addColumn("protocol", "text", (c) => c.notNull())
      .addColumn("day", "text", (c) => c.notNull())
      .addColumn("volume_usd", "double precision", (c) => c.notNull())
      .addColumn("observed_at", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("dex_volumes_pk", ["chain", "protocol", "day"])
      .execute();

    await db.schema
      .createTable("liquidity_requests")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("chain_id", "integer", (c) => c.notNull())
      .addColumn("address", "text", (c) => c.notNull())
      .addColumn("amount_usd", "double precision", (c) => c.notNull())
      .addColumn("horizon_days", "integer", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("ingest_runs")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("started_at", "bigint", (c) => c.notNull())
      .addColumn("finished_at", "bigint")
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("sources_json", "text", (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of [
      "ingest_runs",
      "liquidity_requests",
      "dex_volumes",
      "campaigns",
      "attestations",
      "pool_daily",
      "pools",
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
