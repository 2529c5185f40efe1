import type { Kysely, Migration } from "kysely";

/**
 * The dapp's watchlist: the pools a signed-in wallet starred, one row per wallet and pool (`owner` the lower-case
 * address, as `api_keys.owner`). Read per wallet, so the primary key leads with the owner.
 */
export const watchlist: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("watchlist")
      .addColumn("owner", "text", (c) => c.notNull())
      .addColumn("chain_id", "integer", (c) => c.notNull())
      .addColumn("address", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("watchlist_pk", ["owner", "chain_id", "address"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("watchlist").execute();
  },
};
