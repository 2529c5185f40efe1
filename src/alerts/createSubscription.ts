import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { AlertSubscriptionLimitError, InvalidAlertSubscriptionError } from "../errors/alerts";
import { alertAccountOf, countAlertSubscriptions, insertAlertSubscription } from "../storage/alertSubscriptions";
import type { Database } from "../storage/schema";
import { lockForTransaction } from "../storage/transactionLock";
import { kindConcernsPools, type ActivityKind } from "../model/activityKinds";
import { resolvePool } from "../read/resolvePool";
import { ALERT_KINDS, isAlertKind } from "./alertKinds";
import { checkAlertTarget, type AlertTargetResolver } from "./checkAlertTarget";
import { generateWebhookSecret } from "./generateWebhookSecret";
import { normalizeAlertOwner } from "./subscriptionOwner";

/**
 * The most subscriptions one owner may hold, paused ones included (docs/security.md#keys-subscriptions-and-alerts). A
 * wallet and every API key it created are one owner (the account `wallet:<address>`); a configured key (`API_KEYS`) is
 * one owner alone.
 */
export const MAX_SUBSCRIPTIONS_PER_OWNER = 20;
/** The most kinds one subscription may name. */
export const MAX_KINDS_PER_SUBSCRIPTION = 20;

export type CreateSubscriptionParameters = {
  db: Kysely<Database>;
  /** `key:<API key id>` ({@link keyOwner}) or `wallet:<address>` ({@link walletOwner}). */
  owner: string;
  /** The target: `https` on a public address (see {@link checkAlertTarget}). */
  url: unknown;
  /** The activity kinds wanted: 1 to 20 distinct names from {@link ALERT_KINDS}. */
  kinds: unknown;
  /**
   * The one tracked pool to limit the subscription to (any id shape), or null/absent: every pool. Limited, it receives
   * only the events about that pool (an event about no pool, e.g. `ingest.pass` or a registry event, never).
   */
  pool?: unknown;
  /** `ALERTS_ALLOW_PRIVATE_TARGETS=1` (demo and tests only). Default false. */
  allowPrivateTargets?: boolean;
  resolve?: AlertTargetResolver;
  /** Unix seconds; default the wall clock. */
  now?: () => number;
};
export type CreateSubscriptionReturnType = {
  id: string;
  /** The target as normalized by the URL parser. */
  url: string;
  kinds: string[];
  /** The pool it is limited to (`eip155:<chainId>:<address>`), or null: every pool. */
  pool: string | null;
  /** `whsec_…`: shown this once; it signs every delivery and cannot be read back. */
  secret: string;
  state: "active";
  createdAt: number;
};
export type CreateSubscriptionErrorType =
  | InvalidAlertSubscriptionError
  | import("../errors/alerts").AlertTargetRefusedError
  | AlertSubscriptionLimitError
  | import("../read/resolvePool").ResolvePoolErrorType;

/**
 * Creates an alert subscription for any owner (the keyed route passes `key:<id>`, the dapp `wallet:<address>`): checks
 * the kinds and the target (the URL rules and the addresses its name resolves to now), then stores it with a new
 * secret. From the next event of its kinds on, every event is queued for it in the event's own transaction.
 *
 * @param {@link CreateSubscriptionParameters}
 * @returns {@link CreateSubscriptionReturnType}, the only time the secret is given out.
 * @throws {@link InvalidAlertSubscriptionError} (field `owner` or `kinds`), `AlertTargetRefusedError` (field `url`),
 * {@link AlertSubscriptionLimitError}, and for `pool` `InvalidPoolIdError` (field `pool`), `PoolNotFoundError`,
 * `AmbiguousPoolError` (see `resolvePool`).
 * @example
 * import { createSubscription } from "./alerts/createSubscription";
 * import { walletOwner } from "./alerts/subscriptionOwner";
 * const { id, secret } = await createSubscription({
 *   db, owner: walletOwner(session.address), url: "https://hooks.example.com/in", kinds: ["pool.stale"],
 * });
 */
export async function createSubscription(
  parameters: CreateSubscriptionParameters,
): Promise<CreateSubscriptionReturnType> {
  const { db, allowPrivateTargets = false, resolve } = parameters;
  const now = parameters.now ?? (() => Math.floor(Date.now() / 1000));
  const owner = normalizeAlertOwner(parameters.owner);
  const kinds = checkKinds(parameters.kinds);
  const pool =
    parameters.pool === undefined || parameters.pool === null || parameters.pool === ""
      ? null
      : // eslint-disable-next-line @typescript-eslint/no-base-to-string -- any value is taken; one not a string fails as a pool id
        await resolvePool({ db }, { id: String(parameters.pool), field: "pool" });
  if (pool !== null && !kinds.some((kind) => kindConcernsPools(kind as ActivityKind))) {
    // It would never receive anything: none of its kinds is ever about a pool.
    throw new InvalidAlertSubscriptionError({
      field: "kinds",
      message: `None of these kinds is ever about a pool (ingest.pass and the registry's events are about none): with a pool, name at least one other kind, or leave the pool out.`,
    });
  }
  const target = await checkAlertTarget({ url: parameters.url as string, allowPrivateTargets, resolve });
  const account = await alertAccountOf(db, owner);
  const secret = generateWebhookSecret();
  const row = { id: randomUUID(), owner, account, url: target.url.href, secret, kinds, now: now(), pool };
  await db.transaction().execute(async (trx) => {
    // Serialized per account: two creates at once (with two of a wallet's keys, say) cannot both pass the count.
    await lockForTransaction(trx, `alert_subscriptions:${account}`);
    if ((await countAlertSubscriptions(trx, account)) >= MAX_SUBSCRIPTIONS_PER_OWNER) {
      throw new AlertSubscriptionLimitError({ limit: MAX_SUBSCRIPTIONS_PER_OWNER });
    }
    await insertAlertSubscription(trx, row);
  });
  return {
    id: row.id,
    url: row.url,
    kinds,
    pool: pool?.id ?? null,
    secret: row.secret,
    state: "active",
    createdAt: row.now,
  };
}

/** 1 to {@link MAX_KINDS_PER_SUBSCRIPTION} distinct known kinds, in the order given. */
function checkKinds(kinds: unknown): string[] {
  const fail = (message: string) => new InvalidAlertSubscriptionError({ field: "kinds", message });
  if (!Array.isArray(kinds) || kinds.length === 0 || kinds.length > MAX_KINDS_PER_SUBSCRIPTION) {
    throw fail(`kinds must be a list of 1 to ${MAX_KINDS_PER_SUBSCRIPTION} activity kinds, e.g. ["pool.stale"].`);
  }
  const unknown: unknown = kinds.find((kind) => !isAlertKind(kind));
  if (unknown !== undefined) {
    const shown = typeof unknown === "string" ? JSON.stringify(unknown.slice(0, 64)) : "a non-string";
    throw fail(`${shown} is not an activity kind; use one of ${ALERT_KINDS.join(", ")}.`);
  }
  if (new Set(kinds).size !== kinds.length) throw fail("kinds must not repeat a kind.");
  return kinds as string[];
}
