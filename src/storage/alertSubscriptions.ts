import type { Kysely } from "kysely";
import type { AlertSubscription, Database } from "./schema";

/**
 * Alert subscriptions and the kinds each wants. Every read and change is scoped by `owner` (`key:<api key id>` or
 * `wallet:<address>`), so one owner never sees or changes another's rows.
 */

/** A subscription with its kinds, in the order given. */
export type AlertSubscriptionWithKinds = AlertSubscription & { kinds: string[] };

/** Stores a subscription and its kinds. Call it in a transaction (the two inserts belong together). */
export async function insertAlertSubscription(
  db: Kysely<Database>,
  row: { id: string; owner: string; url: string; secret: string; kinds: readonly string[]; now: number },
): Promise<void> {
  await db
    .insertInto("alert_subscriptions")
    .values({
      id: row.id,
      owner: row.owner,
      url: row.url,
      secret: row.secret,
      state: "active",
      created_at: row.now,
      paused_at: null,
      paused_reason: null,
      last_error: null,
      last_error_at: null,
      last_delivered_at: null,
    })
    .execute();
  await db
    .insertInto("alert_subscription_kinds")
    .values(row.kinds.map((kind, position) => ({ kind, subscription_id: row.id, position })))
    .execute();
}

/** How many subscriptions `owner` holds. */
export async function countAlertSubscriptions(db: Kysely<Database>, owner: string): Promise<number> {
  const row = await db
    .selectFrom("alert_subscriptions")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("owner", "=", owner)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** `owner`'s subscriptions, oldest first, with their kinds (the secret stays in the store). */
export async function listAlertSubscriptions(
  db: Kysely<Database>,
  owner: string,
): Promise<Omit<AlertSubscriptionWithKinds, "secret">[]> {
  const rows = await db
    .selectFrom("alert_subscriptions")
    .select([
      "id",
      "owner",
      "url",
      "state",
      "created_at",
      "paused_at",
      "paused_reason",
      "last_error",
      "last_error_at",
      "last_delivered_at",
    ])
    .where("owner", "=", owner)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  if (rows.length === 0) return [];
  const kinds = await db
    .selectFrom("alert_subscription_kinds")
    .select(["subscription_id", "kind"])
    .where(
      "subscription_id",
      "in",
      rows.map((row) => row.id),
    )
    .orderBy("subscription_id")
    .orderBy("position")
    .execute();
  return rows.map((row) => ({
    ...row,
    created_at: Number(row.created_at),
    kinds: kinds.filter((k) => k.subscription_id === row.id).map((k) => k.kind),
  }));
}

/**
 * Deletes one of `owner`'s subscriptions with its kinds, outbox rows and attempts (the foreign keys cascade): its
 * pending deliveries are dropped. Returns false when `owner` has no subscription with this id.
 */
export async function deleteAlertSubscription(
  db: Kysely<Database>,
  parameters: { owner: string; id: string },
): Promise<boolean> {
  const result = await db
    .deleteFrom("alert_subscriptions")
    .where("id", "=", parameters.id)
    .where("owner", "=", parameters.owner)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Pauses a subscription (its target kept failing): nothing more is sent or queued until it is resumed. */
export async function pauseAlertSubscription(
  db: Kysely<Database>,
  parameters: { id: string; at: number; reason: string },
): Promise<void> {
  await db
    .updateTable("alert_subscriptions")
    .set({ state: "paused", paused_at: parameters.at, paused_reason: parameters.reason })
    .where("id", "=", parameters.id)
    .where("state", "=", "active")
    .execute();
}

/**
 * Makes one of `owner`'s subscriptions active again: its pending rows go out from the oldest on. Returns false when
 * `owner` has no subscription with this id.
 */
export async function resumeAlertSubscription(
  db: Kysely<Database>,
  parameters: { owner: string; id: string },
): Promise<boolean> {
  const result = await db
    .updateTable("alert_subscriptions")
    .set({ state: "active", paused_at: null, paused_reason: null })
    .where("id", "=", parameters.id)
    .where("owner", "=", parameters.owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Notes the outcome of an attempt on its subscription: the last delivery time, or the last error and its time. */
export async function noteAlertAttempt(
  db: Kysely<Database>,
  parameters: { id: string; at: number; error: string | null },
): Promise<void> {
  await db
    .updateTable("alert_subscriptions")
    .set(
      parameters.error === null
        ? { last_delivered_at: parameters.at }
        : { last_error: parameters.error, last_error_at: parameters.at },
    )
    .where("id", "=", parameters.id)
    .execute();
}
