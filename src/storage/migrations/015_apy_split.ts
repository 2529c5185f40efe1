import type { Kysely, Migration } from "kysely";

/**
 * The yields feed's APY split: `apy_base_percent` (the pool's own yield, e.g. trading fees) and `apy_reward_percent`
 * (incentives), written with `apy_percent` (their sum as the feed gives it) and sharing its `apy_observed_at`. Rows
 * written before this migration have neither until the next pass whose feed row carries them.
 */
export const apySplit: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("pools").addColumn("apy_base_percent", "double precision").execute();
    await db.schema.alterTable("pools").addColumn("apy_reward_percent", "double precision").execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable("pools").dropColumn("apy_reward_percent").execute();
    await db.schema.alterTable("pools").dropColumn("apy_base_percent").execute();
  },
};
