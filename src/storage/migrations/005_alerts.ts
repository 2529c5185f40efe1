import { PostgresAdapter, type Kysely, type Migration } from "kysely";

/**
 * Alerts (docs/alerts.md): subscriptions with the event kinds they want, and the outbox of deliveries, written in the
 * same transaction as the activity event it delivers, with one row per attempt. Outbox times are Unix milliseconds
 * (`_ms`: retry delays can be shorter than a second in tests and the demo); the subscriptions' times are Unix seconds.
 */
export const alerts: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const serial = postgres ? "bigserial" : "integer";

    // The secret is stored as given out (`whsec_…`): delivery signs with it (HMAC), so it cannot be kept as a hash.
    await db.schema
      .createTable("alert_subscriptions")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("owner", "text", (c) => c.notNull())
      .addColumn("url", "text", (c) => c.notNull())
      .addColumn("secret", "text", (c) => c.notNull())
      .addColumn("state", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("paused_at", "bigint")
      .addColumn("paused_reason", "text")
      .addColumn("last_error", "text")
      .addColumn("last_error_at", "bigint")
      .addColumn("last_delivered_at", "bigint")
      .execute();
    await db.schema
      .createIndex("alert_subscriptions_owner_idx")
      .on("alert_subscriptions")
      .columns(["owner", "created_at"])
      .execute();

    // One row per (kind, subscription): the outbox's insert finds an event's subscribers through the primary key.
    await db.schema
      .createTable("alert_subscription_kinds")
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("subscription_id", "text", (c) => c.notNull().references("alert_subscriptions.id").onDelete("cascade"))
      .addColumn("position", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("alert_subscription_kinds_pk", ["kind", "subscription_id"])
      .execute();
    await db.schema
      .createIndex("alert_subscription_kinds_subscription_idx")
      .on("alert_subscription_kinds")
      .column("subscription_id")
      .execute();

    await db.schema
      .createTable("alert_outbox")
      .addColumn("id", serial, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn("subscription_id", "text", (c) => c.notNull().references("alert_subscriptions.id").onDelete("cascade"))
      // The event's id in the append-only activity log (no foreign key: the log is never deleted from or rewritten).
      .addColumn("event_id", "bigint", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("attempts", "integer", (c) => c.notNull())
      .addColumn("next_attempt_at_ms", "bigint", (c) => c.notNull())
      .addColumn("lease_token", "text")
      .addColumn("lease_expires_at_ms", "bigint")
      .addColumn("last_status", "integer")
      .addColumn("last_error", "text")
      .addColumn("delivered_at_ms", "bigint")
      .addUniqueConstraint("alert_outbox_event_subscription_uq", ["subscription_id", "event_id"])
      .execute();
    // A subscription's head (its oldest pending event) and its counts by status come from this index.
    await db.schema
      .createIndex("alert_outbox_head_idx")
      .on("alert_outbox")
      .columns(["subscription_id", "status", "event_id"])
      .execute();

    // Every attempt; (outbox_id, attempt) is unique, so one attempt is never recorded twice.
    await db.schema
      .createTable("alert_attempts")
      .addColumn("id", serial, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn("outbox_id", "bigint", (c) => c.notNull().references("alert_outbox.id").onDelete("cascade"))
      .addColumn("attempt", "integer", (c) => c.notNull())
      .addColumn("started_at_ms", "bigint", (c) => c.notNull())
      .addColumn("duration_ms", "integer", (c) => c.notNull())
      .addColumn("status_code", "integer")
      .addColumn("ok", "integer", (c) => c.notNull())
      .addColumn("error", "text")
      .addColumn("worker", "text", (c) => c.notNull())
      .addUniqueConstraint("alert_attempts_outbox_attempt_uq", ["outbox_id", "attempt"])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    for (const table of ["alert_attempts", "alert_outbox", "alert_subscription_kinds", "alert_subscriptions"]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
