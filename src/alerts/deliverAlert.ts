import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { insertAlertAttempt } from "../storage/alertAttempts";
import {
  claimAlertDelivery,
  finishAlertAttempt,
  listDueAlertDeliveries,
  releaseAlertDelivery,
  type DueAlertDelivery,
} from "../storage/alertOutbox";
import { noteAlertAttempt, pauseAlertSubscription } from "../storage/alertSubscriptions";
import type { Database } from "../storage/schema";
import { buildWebhookMessage } from "./buildWebhookMessage";
import type { AlertTargetResolver } from "./checkAlertTarget";
import { retryDelayMs } from "./retryDelay";
import { sendWebhook } from "./sendWebhook";

/** What a delivery needs: the store, the rules, the caps and the clocks. */
export type AlertDeliveryContext = {
  db: Kysely<Database>;
  /** `ALERTS_RETRY_SCHEDULE_S`. */
  retryScheduleS: readonly number[];
  /** `ALERTS_ALLOW_PRIVATE_TARGETS`. */
  allowPrivateTargets: boolean;
  resolve?: AlertTargetResolver;
  /** Cap on one attempt. */
  timeoutMs: number;
  maxResponseBytes: number;
  /** How long a claim holds; longer than `timeoutMs`, so a live worker's claim never lapses mid-attempt. */
  leaseMs: number;
  /** Unix milliseconds. */
  nowMs: () => number;
  random: () => number;
  /** Names this worker in the attempts it records. */
  workerId: string;
  /**
   * The most attempts one account (a wallet with all its keys, or a configured key) may have in flight at once, across
   * workers; unset = no cap (claims still go round robin between accounts).
   */
  perOwnerLimit?: number;
  /**
   * When this worker last claimed a delivery of each account (its own memory, kept across passes): between accounts
   * with the same turn, the one served longest ago goes first, so a busy account cannot keep taking the slot it just
   * freed from an account that waits.
   */
  lastClaimByAccount?: Map<string, number>;
};

/** How many due heads one pass looks at to share its free slots between accounts. */
const CANDIDATES = 1000;
/** Orders the claims of one pass, so two claims in the same millisecond keep their order. */
let claimSequence = 0;

/** A delivery this worker holds for one attempt. */
export type ClaimedAlert = DueAlertDelivery & { token: string };

/** What became of one attempt. */
export type AlertAttemptOutcome = {
  webhookId: string;
  /** `delivered`, `retry` (pending again), `failed` (schedule ran out: subscription paused), `released` (worker
   * stopping: no attempt counted), `lost` (the claim lapsed and another worker took the row: nothing recorded). */
  result: "delivered" | "retry" | "failed" | "released" | "lost";
  attempt: number;
  error: string | null;
};

/**
 * Claims up to `limit` due deliveries for this worker (one per subscription: each subscription's head), shared round
 * robin between accounts and at most `perOwnerLimit` in flight per account (see `listDueAlertDeliveries`). A row that
 * another worker claims first is skipped.
 */
export async function claimDueAlerts(context: AlertDeliveryContext, limit: number): Promise<ClaimedAlert[]> {
  if (limit <= 0) return [];
  const nowMs = context.nowMs();
  const { perOwnerLimit, lastClaimByAccount = new Map<string, number>() } = context;
  const listed = await listDueAlertDeliveries(context.db, {
    nowMs,
    limit: Math.max(limit, CANDIDATES),
    perAccountLimit: perOwnerLimit,
  });
  // By turn, then the account served longest ago (never served first), then as listed (soonest due, oldest event).
  const served = (account: string) => lastClaimByAccount.get(account) ?? -Infinity;
  const due = listed
    .map((delivery, index) => ({ delivery, index }))
    .sort(
      (a, b) =>
        a.delivery.turn - b.delivery.turn ||
        served(a.delivery.account) - served(b.delivery.account) ||
        a.index - b.index,
    )
    .slice(0, limit)
    .map(({ delivery }) => delivery);
  const claimed: ClaimedAlert[] = [];
  for (const delivery of due) {
    const token = `${context.workerId}:${randomUUID()}`;
    const { id, attempts } = delivery;
    if (await claimAlertDelivery(context.db, { id, attempts, token, nowMs, leaseMs: context.leaseMs })) {
      lastClaimByAccount.set(delivery.account, ++claimSequence);
      claimed.push({ ...delivery, token });
    }
  }
  return claimed;
}

/**
 * Makes one attempt of a claimed delivery and records it: the signed request (same `webhook-id` as every other
 * attempt, this attempt's timestamp), then in ONE transaction the outbox row's new state, the attempt's row and the
 * subscription's last delivery or error; when the schedule has run out the row is `failed` and the subscription is
 * paused in the same transaction. An attempt cut short by `signal` (the worker stopping) gives the row back uncounted.
 */
export async function deliverClaimedAlert(
  context: AlertDeliveryContext,
  claimed: ClaimedAlert,
  signal?: AbortSignal,
): Promise<AlertAttemptOutcome> {
  const startedAtMs = context.nowMs();
  const message = buildWebhookMessage({ delivery: claimed, timestamp: new Date(startedAtMs) });
  const sent = await sendWebhook({
    url: claimed.url,
    headers: message.headers,
    body: message.body,
    allowPrivateTargets: context.allowPrivateTargets,
    resolve: context.resolve,
    timeoutMs: context.timeoutMs,
    maxResponseBytes: context.maxResponseBytes,
    signal,
  });
  const attempt = claimed.attempts + 1;
  const base = { webhookId: message.webhookId, attempt, error: sent.error };
  if (signal?.aborted && !sent.ok) {
    await releaseAlertDelivery(context.db, { id: claimed.id, token: claimed.token });
    return { ...base, result: "released" };
  }
  const finishedAtMs = context.nowMs();
  const delay = sent.ok
    ? null
    : retryDelayMs({ scheduleS: context.retryScheduleS, failedAttempt: attempt, random: context.random });
  const result = sent.ok ? "delivered" : delay === null ? "failed" : "retry";
  const recorded = await context.db.transaction().execute(async (trx) => {
    const finished = await finishAlertAttempt(trx, {
      id: claimed.id,
      token: claimed.token,
      status: result === "retry" ? "pending" : result,
      nextAttemptAtMs: delay === null ? finishedAtMs : finishedAtMs + delay,
      lastStatus: sent.statusCode,
      lastError: sent.error,
      deliveredAtMs: sent.ok ? finishedAtMs : null,
    });
    if (!finished) return false;
    await insertAlertAttempt(trx, {
      outbox_id: claimed.id,
      attempt,
      started_at_ms: startedAtMs,
      duration_ms: Math.max(0, finishedAtMs - startedAtMs),
      status_code: sent.statusCode,
      ok: sent.ok ? 1 : 0,
      error: sent.error,
      worker: context.workerId,
    });
    const at = Math.floor(finishedAtMs / 1000);
    await noteAlertAttempt(trx, { id: claimed.subscription_id, at, error: sent.error });
    if (result === "failed") {
      const reason = `${message.webhookId} failed after ${attempt} attempt(s); last error: ${sent.error}`;
      await pauseAlertSubscription(trx, { id: claimed.subscription_id, at, reason });
    }
    return true;
  });
  return { ...base, result: recorded ? result : "lost" };
}

/**
 * One pass: claims up to `limit` due deliveries, makes one attempt of each (concurrently: they belong to different
 * subscriptions) and waits for them. The worker loops over the same steps; tests drive it with their own clock.
 *
 * @returns the outcome of each attempt.
 */
export async function deliverDueAlerts(context: AlertDeliveryContext, limit = 16): Promise<AlertAttemptOutcome[]> {
  const claimed = await claimDueAlerts(context, limit);
  return Promise.all(claimed.map((delivery) => deliverClaimedAlert(context, delivery)));
}
