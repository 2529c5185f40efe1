import type { Kysely, Migration } from "kysely";

/**
 * Sign-In with Ethereum (docs/sign-in.md): the nonces the service issued (single use, expiring) and the dapp's
 * server-side sessions, keyed by the SHA-256 of the cookie's random id (the id itself is never stored).
 */
export const auth: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("siwe_nonces")
      .addColumn("nonce", "text", (c) => c.primaryKey())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("siwe_nonces_expires_at_idx").on("siwe_nonces").column("expires_at").execute();

    await db.schema
      .createTable("sessions")
      .addColumn("id_sha256", "text", (c) => c.primaryKey())
      .addColumn("address", "text", (c) => c.notNull())
      .addColumn("chain_id", "integer", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("sessions_expires_at_idx").on("sessions").column("expires_at").execute();
    await db.schema.createIndex("sessions_address_idx").on("sessions").column("address").execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("sessions").execute();
    await db.schema.dropTable("siwe_nonces").execute();
  },
};
