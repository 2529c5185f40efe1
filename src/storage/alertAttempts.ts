import type { Kysely } from "kysely";
import type { AlertAttempt } from "./alertTables";
import type { Database } from "./schema";

/** The record of every delivery attempt: one row per (outbox row, attempt number), never two. */

/** One finished attempt, as the worker records it. */
export type NewAlertAttempt = Omit<AlertAttempt, "id">;

/**
 * Records one attempt. Call it in the transaction that finishes the outbox row (`finishAlertAttempt`); the unique
 * (outbox_id, attempt) makes a second record of the same attempt fail instead of passing silently.
 */
export async function insertAlertAttempt(db: Kysely<Database>, attempt: NewAlertAttempt): Promise<void> {
  await db.insertInto("alert_attempts").values(attempt).execute();
}

/** The attempts of one outbox row, oldest first. */
export async function listAlertAttempts(db: Kysely<Database>, outboxId: number): Promise<AlertAttempt[]> {
  const rows = await db
    .selectFrom("alert_attempts")
    .selectAll()
    .where("outbox_id", "=", outboxId)
    .orderBy("attempt")
    .execute();
  return rows.map((row) => ({ ...row, id: Number(row.id), outbox_id: Number(row.outbox_id) }));
}

/** Every attempt of a subscription's deliveries, oldest first (tests and diagnostics). */
export async function listAlertAttemptsOfSubscription(
  db: Kysely<Database>,
  subscriptionId: string,
): Promise<(AlertAttempt & { event_id: number })[]> {
  const rows = await db
    .selectFrom("alert_attempts as a")
    .innerJoin("alert_outbox as o", "o.id", "a.outbox_id")
    .selectAll("a")
    .select("o.event_id")
    .where("o.subscription_id", "=", subscriptionId)
    .orderBy("a.id")
    .execute();
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    outbox_id: Number(row.outbox_id),
    event_id: Number(row.event_id),
  }));
}
