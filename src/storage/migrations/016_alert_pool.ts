import type { Kysely, Migration } from "kysely";

/**
 * An alert subscription may be limited to one pool (docs/alerts.md#the-model): `pool_chain_id` and `pool_address`
 * (lower case) name it, or both are null (every pool, and the events about none). The outbox then queues an event
 * for it only when the event is about that pool. The same statements on SQLite and PostgreSQL.
 */
export const alertPool: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("alert_subscriptions").addColumn("pool_chain_id", "integer").execute();
    await db.schema.alterTable("alert_subscriptions").addColumn("pool_address", "text").execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable("alert_subscriptions").dropColumn("pool_address").execute();
    await db.schema.alterTable("alert_subscriptions").dropColumn("pool_chain_id").execute();
  },
};
