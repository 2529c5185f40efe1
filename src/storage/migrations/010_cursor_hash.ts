import type { Kysely, Migration } from "kysely";

/**
 * A log cursor stores the hash of the block it stopped at (`next_block − 1`), so the next pass can tell
 * whether that block is still canonical. Null for cursors written before this migration: they are not checked until
 * their next move stores a hash.
 */
export const cursorHash: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("log_cursors").addColumn("last_block_hash", "text").execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable("log_cursors").dropColumn("last_block_hash").execute();
  },
};
