import { sql, type Kysely, type Migration } from "kysely";

/** The `paused_reason` of a subscription whose API key was revoked (also written by `revokeApiKey`). */
export const KEY_REVOKED_REASON = "its API key was revoked";

/**
 * The account of each alert subscription, the unit its caps and its share of the delivery worker count in.
 * A wallet's subscriptions and those of every API key the wallet created share the account `wallet:<address>`; a
 * configured key's (`API_KEYS`, owner `env`) or an unknown key's account is its owner `key:<id>`. Keys never change
 * owner, so the account is written once, at subscribe time. The subscriptions of keys revoked before this version are
 * paused, as revoking a key now pauses them.
 */
export const alertAccounts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("alert_subscriptions")
      .addColumn("account", "text", (c) => c.notNull().defaultTo(""))
      .execute();
    await sql`update alert_subscriptions set account = owner`.execute(db);
    await sql`
      update alert_subscriptions
      set account = 'wallet:' || (select k.owner from api_keys k where 'key:' || k.id = alert_subscriptions.owner)
      where exists (
        select 1 from api_keys k where 'key:' || k.id = alert_subscriptions.owner and k.owner <> 'env'
      )`.execute(db);
    await db.schema
      .createIndex("alert_subscriptions_account_idx")
      .on("alert_subscriptions")
      .columns(["account", "created_at"])
      .execute();
    const now = Math.floor(Date.now() / 1000);
    await sql`
      update alert_subscriptions
      set state = 'paused', paused_at = ${now}, paused_reason = ${KEY_REVOKED_REASON}
      where state = 'active' and exists (
        select 1 from api_keys k where 'key:' || k.id = alert_subscriptions.owner and k.revoked_at is not null
      )`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex("alert_subscriptions_account_idx").execute();
    await db.schema.alterTable("alert_subscriptions").dropColumn("account").execute();
  },
};
