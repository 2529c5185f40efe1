import type { Selectable } from "kysely";
import type { Generated } from "./columns";

/**
 * The alert delivery tables of the database (`./schema.ts`, migrations 005 and 007; docs/alerts.md): subscriptions,
 * the kinds each wants, the outbox written with each activity event, and the delivery attempts.
 */

/** An alert subscription (docs/alerts.md): a target URL that receives the activity events of the kinds it names. */
export interface AlertSubscriptionsTable {
  id: string;
  /** `key:<api_keys.id>` (the keyed routes) or `wallet:<lower-case address>` (the dapp). */
  owner: string;
  /**
   * The account its caps and delivery share count in: `wallet:<address>` for a wallet's own and for those
   * of every key the wallet created; `key:<id>` (the owner) for a configured key's.
   */
  account: string;
  /** The target, as normalized by the WHATWG URL parser. */
  url: string;
  /** `whsec_` + base64 of 32 random bytes, shown once. Stored as is: delivery signs with it (HMAC). */
  secret: string;
  /**
   * `active`, or `paused` (a delivery reached the failed state, or its API key was revoked; nothing is sent or queued
   * until resumed).
   */
  state: "active" | "paused";
  created_at: number;
  paused_at: number | null;
  paused_reason: string | null;
  /** The last failed attempt's error and time (Unix seconds). */
  last_error: string | null;
  last_error_at: number | null;
  last_delivered_at: number | null;
  /** The one pool the subscription is limited to (chain and lower-case address), or both null: every pool. Migration 016. */
  pool_chain_id: number | null;
  pool_address: string | null;
}

/** The kinds a subscription wants, one row each (`position` keeps the order given). */
export interface AlertSubscriptionKindsTable {
  kind: string;
  subscription_id: string;
  position: number;
}

/**
 * The outbox: one row per (activity event, subscription), inserted in the event's own transaction. The `webhook-id`
 * is derived from the pair, so it is the same on every attempt. Times are Unix milliseconds.
 */
export interface AlertOutboxTable {
  id: Generated<number>;
  subscription_id: string;
  event_id: number;
  /** `pending` (to send or to retry), `delivered` (a 2xx), `failed` (the retry schedule ran out). */
  status: "pending" | "delivered" | "failed";
  /** Attempts finished (each has its `alert_attempts` row). */
  attempts: number;
  /** Not sent before this time (0: at once). */
  next_attempt_at_ms: number;
  /** The worker's claim: a token and when it lapses (a crashed worker's claim lapses; another worker takes over). */
  lease_token: string | null;
  lease_expires_at_ms: number | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at_ms: number | null;
}

/** One delivery attempt of an outbox row. */
export interface AlertAttemptsTable {
  id: Generated<number>;
  outbox_id: number;
  /** 1, 2, …: unique per outbox row. */
  attempt: number;
  started_at_ms: number;
  duration_ms: number;
  /** The HTTP status, or null when no response came (refused target, network error, timeout). */
  status_code: number | null;
  /** 1 for a 2xx, else 0. */
  ok: number;
  error: string | null;
  /** The worker that made the attempt. */
  worker: string;
}

export type AlertSubscription = Selectable<AlertSubscriptionsTable>;
export type AlertOutboxRow = Selectable<AlertOutboxTable>;
export type AlertAttempt = Selectable<AlertAttemptsTable>;
