import { sql, type Kysely } from "kysely";
import { ALERT_TEST_KIND } from "../model/activityKinds";
import type { AlertOutboxRow } from "./alertTables";
import type { ActivityEvent, Database } from "./schema";
import { lockForTransaction } from "./transactionLock";

/**
 * The alert outbox: one row per (activity event, subscription). Rows are inserted by `appendActivity` in the event's
 * own transaction, claimed by a delivery worker with a lease (a conditional UPDATE: the same on SQLite and
 * PostgreSQL, and safe with several workers on one database), and finished with the attempt's outcome.
 */

/** Largest `IN (…)` list one statement carries. */
const CHUNK = 500;

/**
 * The Standard Webhooks `webhook-id` of a delivery: stable per (event, subscription), so every retry carries the same
 * id and a receiver can drop a duplicate.
 */
export function webhookIdOf(eventId: number, subscriptionId: string): string {
  return `msg_${eventId}_${subscriptionId}`;
}

/**
 * Inserts the outbox rows of events just appended: one per (event, active subscription that wants the event's kind
 * and, when it is limited to one pool, is about that pool), due at once. Call it with the transaction that appended the events (`appendActivity` does), so the rows exist
 * exactly when the events do. A paused subscription gets no rows while it is paused.
 */
export async function enqueueAlertDeliveries(db: Kysely<Database>, eventIds: readonly number[]): Promise<void> {
  for (let start = 0; start < eventIds.length; start += CHUNK) {
    const ids = eventIds.slice(start, start + CHUNK);
    await db
      .insertInto("alert_outbox")
      .columns(["subscription_id", "event_id", "status", "attempts", "next_attempt_at_ms"])
      .expression((eb) =>
        eb
          .selectFrom("activity_events as e")
          .innerJoin("alert_subscription_kinds as k", "k.kind", "e.kind")
          .innerJoin("alert_subscriptions as s", "s.id", "k.subscription_id")
          .where("e.id", "in", ids)
          .where("s.state", "=", "active")
          .where((w) =>
            w.or([
              w("s.pool_chain_id", "is", null),
              w.and([w("s.pool_chain_id", "=", w.ref("e.chain_id")), w("s.pool_address", "=", w.ref("e.address"))]),
            ]),
          )
          .select((s) => [
            "s.id",
            "e.id",
            sql<string>`'pending'`.as("status"),
            s.lit(0).as("attempts"),
            s.lit(0).as("due"),
          ]),
      )
      .execute();
  }
}

/**
 * Queues one test event (`alert.test`) for one subscription: the event's row (which the log's readers never show)
 * and its one outbox row, due at once, in one transaction. Refused (`"pending"`, nothing written) while an earlier
 * test event of the subscription is still pending: one test at a time per subscription. The caller checks that the
 * subscription is its owner's and active.
 *
 * @returns the event's id, or `"pending"`.
 */
export async function enqueueAlertTestEvent(
  db: Kysely<Database>,
  parameters: { subscriptionId: string; at: number; summary: string; data: Record<string, unknown> },
): Promise<{ eventId: number } | "pending"> {
  const { subscriptionId, at, summary, data } = parameters;
  return db.transaction().execute(async (tx) => {
    await lockForTransaction(tx, `alert-test:${subscriptionId}`);
    const pending = await tx
      .selectFrom("alert_outbox as o")
      .innerJoin("activity_events as e", "e.id", "o.event_id")
      .select("o.id")
      .where("o.subscription_id", "=", subscriptionId)
      .where("o.status", "=", "pending")
      .where("e.kind", "=", ALERT_TEST_KIND)
      .executeTakeFirst();
    if (pending !== undefined) return "pending" as const;
    const event = await tx
      .insertInto("activity_events")
      .values({ kind: ALERT_TEST_KIND, at, chain_id: null, address: null, summary, data_json: JSON.stringify(data) })
      .returning("id")
      .executeTakeFirstOrThrow();
    const eventId = Number(event.id);
    await tx
      .insertInto("alert_outbox")
      .values({
        subscription_id: subscriptionId,
        event_id: eventId,
        status: "pending",
        attempts: 0,
        next_attempt_at_ms: 0,
      })
      .execute();
    return { eventId };
  });
}

/** A delivery ready to send: the outbox row, its event and its subscription's target. */
export type DueAlertDelivery = Pick<AlertOutboxRow, "id" | "subscription_id" | "event_id" | "attempts"> & {
  url: string;
  secret: string;
  /** The subscription's account (a wallet with all its keys, or a configured key). */
  account: string;
  /** The account's attempts in flight plus this head's place among its due heads (1 = the account's next). */
  turn: number;
  event: Pick<ActivityEvent, "id" | "kind" | "at" | "chain_id" | "address" | "summary" | "data_json">;
};

/**
 * Deliveries due at `nowMs`, at most `limit`: for each active subscription only its HEAD, the pending row of its
 * oldest event, and only when that row is due and not claimed (or its claim lapsed). So a subscription's events go out
 * one at a time in event order, and a row waiting for a retry holds back the rows behind it.
 *
 * Shared fairly between accounts (a wallet with all its keys, or a configured key): an account's due heads
 * are ranked soonest first, each after the attempts the account has in flight now (rows under an unexpired lease,
 * whichever worker holds them), into `turn`, and the answer is ordered by turn, so each account's next head comes
 * before any account's one after (the worker breaks ties between accounts round robin). With `perAccountLimit`, an
 * account with that many attempts in flight gets none: one owner's targets that never answer can hold at most that
 * many of the workers' slots.
 */
export async function listDueAlertDeliveries(
  db: Kysely<Database>,
  parameters: { nowMs: number; limit: number; perAccountLimit?: number },
): Promise<DueAlertDelivery[]> {
  const { nowMs, limit, perAccountLimit } = parameters;
  const busy = db
    .selectFrom("alert_outbox as b")
    .innerJoin("alert_subscriptions as bs", "bs.id", "b.subscription_id")
    .where("b.lease_expires_at_ms", ">", nowMs)
    .select((eb) => ["bs.account", eb.fn.countAll<number>().as("n")])
    .groupBy("bs.account");
  const heads = db
    .selectFrom("alert_subscriptions as s")
    .innerJoin("alert_outbox as o", (join) =>
      join.on((eb) =>
        eb(
          "o.id",
          "=",
          eb
            .selectFrom("alert_outbox as h")
            .select("h.id")
            .whereRef("h.subscription_id", "=", "s.id")
            .where("h.status", "=", "pending")
            .orderBy("h.event_id")
            .limit(1),
        ),
      ),
    )
    .innerJoin("activity_events as e", "e.id", "o.event_id")
    .leftJoin(busy.as("busy"), "busy.account", "s.account")
    .where("s.state", "=", "active")
    .where("o.next_attempt_at_ms", "<=", nowMs)
    .where((eb) => eb.or([eb("o.lease_expires_at_ms", "is", null), eb("o.lease_expires_at_ms", "<=", nowMs)]))
    .select((eb) => [
      "o.id",
      "o.subscription_id",
      "o.event_id",
      "o.attempts",
      "o.next_attempt_at_ms",
      "s.url",
      "s.secret",
      "s.account",
      "e.kind",
      "e.at",
      "e.chain_id",
      "e.address",
      "e.summary",
      "e.data_json",
      // The attempts the account has in flight, plus this head's place among the account's due heads.
      sql<number>`coalesce(${eb.ref("busy.n")}, 0) + ${eb.fn
        .agg<number>("row_number")
        .over((ob) => ob.partitionBy("s.account").orderBy("o.next_attempt_at_ms").orderBy("o.event_id"))}`.as("turn"),
    ]);
  const rows = await db
    .selectFrom(heads.as("d"))
    .selectAll()
    .$if(perAccountLimit !== undefined, (qb) => qb.where("d.turn", "<=", perAccountLimit!))
    .orderBy("d.turn")
    .orderBy("d.next_attempt_at_ms")
    .orderBy("d.event_id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    subscription_id: row.subscription_id,
    event_id: Number(row.event_id),
    attempts: Number(row.attempts),
    url: row.url,
    secret: row.secret,
    account: row.account,
    turn: Number(row.turn),
    event: {
      id: Number(row.event_id),
      kind: row.kind,
      at: Number(row.at),
      chain_id: row.chain_id === null ? null : Number(row.chain_id),
      address: row.address,
      summary: row.summary,
      data_json: row.data_json,
    },
  }));
}

/**
 * Claims one delivery for one attempt: sets the lease `token` until `nowMs + leaseMs`, only if the row is still
 * pending with the attempts seen, its lease is free or lapsed, and its subscription is active. One conditional UPDATE,
 * so of several workers racing for a row exactly one wins (PostgreSQL re-checks the condition on the row a concurrent
 * winner committed; SQLite runs one writer at a time).
 *
 * @returns true when this caller holds the row.
 */
export async function claimAlertDelivery(
  db: Kysely<Database>,
  parameters: { id: number; attempts: number; token: string; nowMs: number; leaseMs: number },
): Promise<boolean> {
  const { id, attempts, token, nowMs, leaseMs } = parameters;
  const result = await db
    .updateTable("alert_outbox")
    .set({ lease_token: token, lease_expires_at_ms: nowMs + leaseMs })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .where("attempts", "=", attempts)
    .where((eb) => eb.or([eb("lease_expires_at_ms", "is", null), eb("lease_expires_at_ms", "<=", nowMs)]))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("alert_subscriptions as s")
          .select("s.id")
          .whereRef("s.id", "=", "alert_outbox.subscription_id")
          .where("s.state", "=", "active"),
      ),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Finishes the attempt of a claimed row: `delivered`, `pending` again (due at `nextAttemptAtMs`) or `failed`, with one
 * more attempt counted and the lease cleared. Only the holder of `token` can do it: a worker whose lease lapsed and
 * was taken over changes nothing.
 *
 * @returns true when the row was updated (the caller still held it).
 */
export async function finishAlertAttempt(
  db: Kysely<Database>,
  parameters: {
    id: number;
    token: string;
    status: AlertOutboxRow["status"];
    nextAttemptAtMs: number;
    lastStatus: number | null;
    lastError: string | null;
    deliveredAtMs: number | null;
  },
): Promise<boolean> {
  const result = await db
    .updateTable("alert_outbox")
    .set((eb) => ({
      status: parameters.status,
      attempts: eb("attempts", "+", 1),
      next_attempt_at_ms: parameters.nextAttemptAtMs,
      lease_token: null,
      lease_expires_at_ms: null,
      last_status: parameters.lastStatus,
      last_error: parameters.lastError,
      delivered_at_ms: parameters.deliveredAtMs,
    }))
    .where("id", "=", parameters.id)
    .where("lease_token", "=", parameters.token)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives a claimed row back without counting an attempt (a worker stopping mid-send): due again at once. */
export async function releaseAlertDelivery(db: Kysely<Database>, parameters: { id: number; token: string }) {
  await db
    .updateTable("alert_outbox")
    .set({ lease_token: null, lease_expires_at_ms: null })
    .where("id", "=", parameters.id)
    .where("lease_token", "=", parameters.token)
    .execute();
}

/** Outbox rows by status, per subscription (subscriptions with no rows are absent). */
export async function countAlertDeliveries(
  db: Kysely<Database>,
  subscriptionIds: readonly string[],
): Promise<Map<string, Record<AlertOutboxRow["status"], number>>> {
  const counts = new Map<string, Record<AlertOutboxRow["status"], number>>();
  for (let start = 0; start < subscriptionIds.length; start += CHUNK) {
    const rows = await db
      .selectFrom("alert_outbox")
      .select((eb) => ["subscription_id", "status", eb.fn.countAll<number>().as("n")])
      .where("subscription_id", "in", subscriptionIds.slice(start, start + CHUNK))
      .groupBy(["subscription_id", "status"])
      .execute();
    for (const row of rows) {
      const entry = counts.get(row.subscription_id) ?? { pending: 0, delivered: 0, failed: 0 };
      entry[row.status] = Number(row.n);
      counts.set(row.subscription_id, entry);
    }
  }
  return counts;
}

/** A subscription's outbox rows in event order (tests and diagnostics). */
export async function listAlertOutbox(db: Kysely<Database>, subscriptionId: string): Promise<AlertOutboxRow[]> {
  const rows = await db
    .selectFrom("alert_outbox")
    .selectAll()
    .where("subscription_id", "=", subscriptionId)
    .orderBy("event_id")
    .execute();
  return rows.map((row) => ({ ...row, id: Number(row.id), event_id: Number(row.event_id) }));
}
