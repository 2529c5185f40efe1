import type { Kysely } from "kysely";
import { countAlertDeliveries } from "../storage/alertOutbox";
import { listAlertSubscriptions } from "../storage/alertSubscriptions";
import type { Database } from "../storage/schema";
import { formatPoolId } from "@attestation-registry/sdk";
import { normalizeAlertOwner } from "./subscriptionOwner";

/** A subscription as its owner sees it, with its delivery state (never its secret). */
export type SubscriptionView = {
  id: string;
  url: string;
  kinds: string[];
  /** The one pool it is limited to (`eip155:<chainId>:<address>`), or null: every pool. */
  pool: string | null;
  /**
   * `active`, or `paused` after a delivery failed for good or its API key was revoked (see `pausedReason`); resume to
   * deliver again (not while its key is revoked).
   */
  state: "active" | "paused";
  /** Unix seconds. */
  createdAt: number;
  pausedAt: number | null;
  pausedReason: string | null;
  /** Outbox rows by state: waiting (to send or to retry), delivered (a 2xx), failed (the schedule ran out). */
  deliveries: { pending: number; delivered: number; failed: number };
  /** The last failed attempt's error and time (Unix seconds), or null. */
  lastError: string | null;
  lastErrorAt: number | null;
  /** The last delivery's time (Unix seconds), or null. */
  lastDeliveredAt: number | null;
};

export type ListSubscriptionsParameters = {
  db: Kysely<Database>;
  /** `key:<API key id>` or `wallet:<address>`. */
  owner: string;
};
export type ListSubscriptionsReturnType = SubscriptionView[];

/**
 * The owner's subscriptions, oldest first, each with its delivery state; another owner's are never listed. A wallet's
 * list holds those of every key it created too (revoked keys' included, paused).
 *
 * @param {@link ListSubscriptionsParameters}
 * @returns {@link ListSubscriptionsReturnType}
 * @throws `InvalidAlertSubscriptionError` for a malformed owner.
 * @example
 * import { listSubscriptions } from "./alerts/listSubscriptions";
 * const mine = await listSubscriptions({ db, owner: walletOwner(session.address) });
 */
export async function listSubscriptions({ db, owner }: ListSubscriptionsParameters): Promise<SubscriptionView[]> {
  const rows = await listAlertSubscriptions(db, normalizeAlertOwner(owner));
  const counts = await countAlertDeliveries(
    db,
    rows.map((row) => row.id),
  );
  const orNull = (value: number | null) => (value === null ? null : Number(value));
  return rows.map((row) => ({
    id: row.id,
    url: row.url,
    kinds: row.kinds,
    pool:
      row.pool_chain_id === null || row.pool_address === null
        ? null
        : formatPoolId({ chainId: Number(row.pool_chain_id), address: row.pool_address }),
    state: row.state,
    createdAt: Number(row.created_at),
    pausedAt: orNull(row.paused_at),
    pausedReason: row.paused_reason,
    deliveries: counts.get(row.id) ?? { pending: 0, delivered: 0, failed: 0 },
    lastError: row.last_error,
    lastErrorAt: orNull(row.last_error_at),
    lastDeliveredAt: orNull(row.last_delivered_at),
  }));
}
