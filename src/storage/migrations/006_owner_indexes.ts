import type { Kysely, Migration } from "kysely";

/**
 * The dapp's per-wallet reads: a wallet's API keys (`api_keys.owner`) and the liquidity requests written with them
 * (`liquidity_requests.api_key_id`). Without these, both scan their table.
 */
export const ownerIndexes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex("api_keys_owner_idx").on("api_keys").columns(["owner", "created_at"]).execute();
    await db.schema
      .createIndex("liquidity_requests_api_key_idx")
      .on("liquidity_requests")
      .column("api_key_id")
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex("liquidity_requests_api_key_idx").execute();
    await db.schema.dropIndex("api_keys_owner_idx").execute();
  },
};
