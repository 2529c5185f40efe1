import type { ExpressionBuilder, Kysely } from "kysely";
import { CONFIG_KEY_OWNER, madeWithRevokedKey } from "./apiKeys";
import { KEY_REVOKED_REASON } from "./migrations/007_alert_accounts";
import type { AlertSubscription } from "./alertTables";
import type { Database } from "./schema";

/**
 * Alert subscriptions and the kinds each wants. Every read and change is scoped by the caller: an API key
 * (`key:<id>`) sees its own rows (`owner`); a wallet (`wallet:<address>`) sees its account's, its own and those of
 * every key it created (`account`, docs/security.md#keys-subscriptions-and-alerts). So one owner never sees or changes
 * another's rows.
 */

export { KEY_REVOKED_REASON };

/** The rows `owner` may see and change: a key's own, or a wallet's whole account. */
function scopedTo(owner: string) {
  return (eb: ExpressionBuilder<Database, "alert_subscriptions">) =>
    owner.startsWith("wallet:")
      ? eb("alert_subscriptions.account", "=", owner)
      : eb("alert_subscriptions.owner", "=", owner);
}

/**
 * The account of the subscriptions `owner` makes: a wallet's is itself; a key's is `wallet:<address>` of the wallet
 * that created it, or the key itself for a configured key (`env`) or one the store does not know.
 */
export async function alertAccountOf(db: Kysely<Database>, owner: string): Promise<string> {
  if (!owner.startsWith("key:")) return owner;
  const key = await db
    .selectFrom("api_keys")
    .select("owner")
    .where("id", "=", owner.slice("key:".length))
    .executeTakeFirst();
  return key === undefined || key.owner === CONFIG_KEY_OWNER ? owner : `wallet:${key.owner.toLowerCase()}`;
}

/** A subscription with its kinds, in the order given. */
export type AlertSubscriptionWithKinds = AlertSubscription & { kinds: string[] };

/** Stores a subscription and its kinds. Call it in a transaction (the two inserts belong together). */
export async function insertAlertSubscription(
  db: Kysely<Database>,
  row: {
    id: string;
    owner: string;
    account: string;
    url: string;
    secret: string;
    kinds: readonly string[];
    now: number;
    /** The one pool it is limited to, or null (the default): every pool. */
    pool?: { chainId: number; address: string } | null;
  },
): Promise<void> {
  await db
    .insertInto("alert_subscriptions")
    .values({
      id: row.id,
      owner: row.owner,
      account: row.account,
      url: row.url,
      secret: row.secret,
      state: "active",
      created_at: row.now,
      paused_at: null,
      paused_reason: null,
      last_error: null,
      last_error_at: null,
      last_delivered_at: null,
      pool_chain_id: row.pool?.chainId ?? null,
      pool_address: row.pool?.address.toLowerCase() ?? null,
    })
    .execute();
  await db
    .insertInto("alert_subscription_kinds")
    .values(row.kinds.map((kind, position) => ({ kind, subscription_id: row.id, position })))
    .execute();
}

/** How many subscriptions `account` holds, paused ones included ({@link alertAccountOf}). */
export async function countAlertSubscriptions(db: Kysely<Database>, account: string): Promise<number> {
  const row = await db
    .selectFrom("alert_subscriptions")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("account", "=", account)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The subscriptions `owner` sees (a key's own; a wallet's and its keys'), oldest first, with their kinds (the secret
 * stays in the store).
 */
export async function listAlertSubscriptions(
  db: Kysely<Database>,
  owner: string,
): Promise<Omit<AlertSubscriptionWithKinds, "secret">[]> {
  const rows = await db
    .selectFrom("alert_subscriptions")
    .select([
      "id",
      "owner",
      "account",
      "url",
      "state",
      "created_at",
      "paused_at",
      "paused_reason",
      "last_error",
      "last_error_at",
      "last_delivered_at",
      "pool_chain_id",
      "pool_address",
    ])
    .where(scopedTo(owner))
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
 * Deletes one of the subscriptions `owner` sees (a wallet: those of its keys too, revoked or not) with its kinds,
 * outbox rows and attempts (the foreign keys cascade): its pending deliveries are dropped. Returns false when `owner`
 * sees no subscription with this id.
 */
export async function deleteAlertSubscription(
  db: Kysely<Database>,
  parameters: { owner: string; id: string },
): Promise<boolean> {
  const result = await db
    .deleteFrom("alert_subscriptions")
    .where("id", "=", parameters.id)
    .where(scopedTo(parameters.owner))
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
 * Makes one of the subscriptions `owner` sees active again: its pending rows go out from the oldest on. A
 * subscription made with a key that is now revoked stays paused.
 *
 * @returns `resumed`, `not-found` (`owner` sees no subscription with this id) or `key-revoked`.
 */
export async function resumeAlertSubscription(
  db: Kysely<Database>,
  parameters: { owner: string; id: string },
): Promise<"resumed" | "not-found" | "key-revoked"> {
  const result = await db
    .updateTable("alert_subscriptions")
    .set({ state: "active", paused_at: null, paused_reason: null })
    .where("id", "=", parameters.id)
    .where(scopedTo(parameters.owner))
    .where((eb) => eb.not(madeWithRevokedKey(eb)))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 1) return "resumed";
  const seen = await db
    .selectFrom("alert_subscriptions")
    .select("id")
    .where("id", "=", parameters.id)
    .where(scopedTo(parameters.owner))
    .executeTakeFirst();
  return seen === undefined ? "not-found" : "key-revoked";
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
