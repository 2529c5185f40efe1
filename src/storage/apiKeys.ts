import { randomUUID } from "node:crypto";
import { sql, type ExpressionBuilder, type Kysely } from "kysely";
import { KEY_REVOKED_REASON } from "./migrations/007_alert_accounts";
import { lockForTransaction } from "./transactionLock";
import type { ApiKey } from "./accountTables";
import type { Database } from "./schema";

/**
 * API keys, by the SHA-256 of the key (hex): the key itself is never stored. An owner is `env` for the keys the
 * service's configuration holds (`API_KEYS`, the demo key) or the lower-case address of the wallet that created it.
 * Revoking a key pauses the alert subscriptions made with it, in the same transaction
 * (docs/security.md#keys-subscriptions-and-alerts).
 */

/** The owner of every key that comes from the service's configuration. */
export const CONFIG_KEY_OWNER = "env";

/** A new key's row (the id is given by the caller, so it can be returned with the key). */
export type NewApiKey = { id: string; keySha256: string; owner: string; label: string | null; now: number };

/** Stores a key's hash. Returns false (and stores nothing) when that hash is already stored. */
export async function insertApiKey(db: Kysely<Database>, key: NewApiKey): Promise<boolean> {
  const result = await db
    .insertInto("api_keys")
    .values({
      id: key.id,
      key_sha256: key.keySha256,
      owner: key.owner,
      label: key.label,
      created_at: key.now,
      revoked_at: null,
    })
    .onConflict((oc) => oc.column("key_sha256").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** The key whose SHA-256 (hex, lower case) is `keySha256`, revoked or not. */
export async function findApiKeyBySha256(db: Kysely<Database>, keySha256: string): Promise<ApiKey | undefined> {
  return db.selectFrom("api_keys").selectAll().where("key_sha256", "=", keySha256).executeTakeFirst();
}

/** An owner's keys, oldest first, revoked ones included (the hash is left out: nobody needs it back). */
export async function listApiKeys(db: Kysely<Database>, owner: string): Promise<Omit<ApiKey, "key_sha256">[]> {
  return db
    .selectFrom("api_keys")
    .select(["id", "owner", "label", "created_at", "revoked_at"])
    .where("owner", "=", owner)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

/**
 * Revokes one of `owner`'s keys and, in the same transaction, pauses the alert subscriptions made with it. Returns
 * false when the owner has no such key or it is already revoked.
 */
export async function revokeApiKey(
  db: Kysely<Database>,
  parameters: { id: string; owner: string; now: number },
): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const result = await tx
      .updateTable("api_keys")
      .set({ revoked_at: parameters.now })
      .where("id", "=", parameters.id)
      .where("owner", "=", parameters.owner)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await pauseRevokedKeySubscriptions(tx, { at: parameters.now });
    return true;
  });
}

/**
 * How many keys a wallet may create in any 24 hours, as a multiple of its cap of keys held at once: revoking frees a
 * slot at once, but creating and revoking in a loop cannot grow the table without bound (a wallet adds at most twice
 * its cap of rows a day).
 */
export const KEYS_CREATED_PER_DAY_FACTOR = 2;

/**
 * Stores a wallet's new key unless the wallet already holds `max` keys that are not revoked (`limit`), or has created
 * `max` × {@link KEYS_CREATED_PER_DAY_FACTOR} keys in the last 24 hours, revoked ones included (`daily-limit`): the
 * counts and the insert are one transaction, serialized per wallet ({@link lockForTransaction}), so concurrent creates
 * cannot pass either cap.
 *
 * @returns `created`, `limit` or `daily-limit` (nothing stored), or `duplicate` (the hash is already stored).
 */
export async function insertApiKeyUnderCap(
  db: Kysely<Database>,
  key: NewApiKey,
  max: number,
): Promise<"created" | "limit" | "daily-limit" | "duplicate"> {
  return db.transaction().execute(async (tx) => {
    await lockForTransaction(tx, `api_keys:${key.owner}`);
    const row = await tx
      .selectFrom("api_keys")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("owner", "=", key.owner)
      .where("revoked_at", "is", null)
      .executeTakeFirstOrThrow();
    if (Number(row.n) >= max) return "limit";
    const recent = await tx
      .selectFrom("api_keys")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("owner", "=", key.owner)
      .where("created_at", ">", key.now - 86_400)
      .executeTakeFirstOrThrow();
    if (Number(recent.n) >= max * KEYS_CREATED_PER_DAY_FACTOR) return "daily-limit";
    return (await insertApiKey(tx, key)) ? "created" : "duplicate";
  });
}

/** What {@link addConfigApiKeys} did with the keys it was given. */
export type AddConfigApiKeysResult = {
  /** Stored now. */
  added: number;
  /** Already stored and not revoked. */
  kept: number;
  /** Already stored and revoked (`attest keys revoke`): they stay revoked. */
  revoked: number;
};

/**
 * Adds the configuration's keys (owner `env`) the store does not hold yet, in one transaction. It never revokes and
 * never restores: several processes may name different keys, so a key another process's `API_KEYS` names
 * keeps working, and a key revoked with `attest keys revoke` stays revoked even if a configuration still names it. A
 * stored key keeps the label it was first added with. A hash a wallet already holds is left to the wallet.
 */
export async function addConfigApiKeys(
  db: Kysely<Database>,
  parameters: { keys: readonly { keySha256: string; label: string }[]; now: number },
): Promise<AddConfigApiKeysResult> {
  const { keys, now } = parameters;
  return db.transaction().execute(async (tx) => {
    const result: AddConfigApiKeysResult = { added: 0, kept: 0, revoked: 0 };
    for (const { keySha256, label } of keys) {
      if (await insertApiKey(tx, { id: randomUUID(), keySha256, owner: CONFIG_KEY_OWNER, label, now })) {
        result.added++;
        continue;
      }
      const row = await findApiKeyBySha256(tx, keySha256);
      if (row === undefined || row.owner !== CONFIG_KEY_OWNER) continue;
      if (row.revoked_at === null) result.kept++;
      else result.revoked++;
    }
    return result;
  });
}

/** One configured key as `attest keys list` shows it: never the key, and only the last 4 hex digits of its hash. */
export type ConfigApiKeyListing = {
  id: string;
  label: string | null;
  created_at: number;
  revoked_at: number | null;
  /** The last 4 hex digits of the key's SHA-256 (to tell keys apart; `sha256sum` of a key file ends with them). */
  hash_tail: string;
};

/** The configuration's keys (owner `env`), oldest first, revoked ones included. */
export async function listConfigApiKeys(db: Kysely<Database>): Promise<ConfigApiKeyListing[]> {
  const rows = await db
    .selectFrom("api_keys")
    .select(["id", "label", "created_at", "revoked_at", "key_sha256"])
    .where("owner", "=", CONFIG_KEY_OWNER)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map(({ key_sha256, ...row }) => ({ ...row, hash_tail: key_sha256.slice(-4) }));
}

/** Whether a subscription was made with an API key that is now revoked (it stays paused). */
export function madeWithRevokedKey(eb: ExpressionBuilder<Database, "alert_subscriptions">) {
  return eb.exists(
    eb
      .selectFrom("api_keys as k")
      .select("k.id")
      .where(sql<string>`'key:' || k.id`, "=", eb.ref("alert_subscriptions.owner"))
      .where("k.revoked_at", "is not", null),
  );
}

/**
 * Pauses the active subscriptions made with API keys that are revoked (call it in the revoking transaction): nothing
 * more is queued or sent for them, their owner's wallet still lists them and may delete them.
 *
 * @returns how many were paused.
 */
export async function pauseRevokedKeySubscriptions(db: Kysely<Database>, parameters: { at: number }): Promise<number> {
  const result = await db
    .updateTable("alert_subscriptions")
    .set({ state: "paused", paused_at: parameters.at, paused_reason: KEY_REVOKED_REASON })
    .where("state", "=", "active")
    .where("owner", "like", "key:%")
    .where(madeWithRevokedKey)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
