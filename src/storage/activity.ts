import { PostgresAdapter, type Kysely } from "kysely";
import { formatPoolId } from "@attestation-registry/sdk";
import { ALERT_TEST_KIND, type ActivityKind } from "../model/activityKinds";
import { enqueueAlertDeliveries } from "./alertOutbox";
import { chunksOf } from "./batches";
import type { ActivityEvent, Database } from "./schema";

/** One event to append to the activity log. */
export type NewActivity = {
  /** One of {@link ActivityKind}: `ingest.pass`, `attestation.issued`, `pool.stale`, `registry.Registered`, … */
  kind: ActivityKind;
  /** Unix seconds. */
  at: number;
  /** The pool the event is about, if any. */
  pool?: { chainId: number; address: string } | null;
  /** One line for humans. */
  summary: string;
  /** The event's data (serialized as JSON). */
  data: Record<string, unknown>;
};

/**
 * Appends events to the activity log. Call it with the transaction that makes the change the events report, so an
 * event exists exactly when its change does. With the same `db`, it writes the alert outbox: one row per (event,
 * active subscription that wants its kind), so a delivery exists exactly when its event does.
 *
 * @param db an open transaction (or the store's Kysely instance for a change of one statement).
 * @returns the ids given to the events, in order.
 */
export async function appendActivity(db: Kysely<Database>, events: readonly NewActivity[]): Promise<number[]> {
  const ids: number[] = [];
  const rows = events.map((event) => ({
    kind: event.kind,
    at: event.at,
    chain_id: event.pool?.chainId ?? null,
    address: event.pool ? event.pool.address.toLowerCase() : null,
    summary: event.summary,
    data_json: JSON.stringify(event.data),
  }));
  // One multi-row insert per chunk: its rows take ascending ids in the order given (RETURNING order is not promised,
  // so the ids are sorted back into that order).
  for (const chunk of chunksOf(rows, 6)) {
    const inserted = await db.insertInto("activity_events").values(chunk).returning("id").execute();
    ids.push(...inserted.map((row) => Number(row.id)).sort((a, b) => a - b));
  }
  await enqueueAlertDeliveries(db, ids);
  return ids;
}

/**
 * Removes events from the activity log (the registry events of blocks a reorganisation orphaned), with
 * their alert deliveries not yet sent (`pending` outbox rows, so no subscription waits behind a removed event). A
 * delivery already final (`delivered`, or `failed` after its retries) is kept with its attempts: what was sent cannot
 * be unsent. Call it in the transaction that writes what replaces them.
 *
 * @param db an open transaction.
 */
export async function removeActivity(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  for (const chunk of chunksOf(ids, 1)) {
    await db.deleteFrom("alert_outbox").where("event_id", "in", chunk).where("status", "=", "pending").execute();
    await db.deleteFrom("activity_events").where("id", "in", chunk).execute();
  }
}

/** One event as every surface serves it (`GET /api/v1/activity`, the MCP tool, the webhook body). */
export type ActivityItem = {
  /** Grows with every event: the log's order. */
  id: number;
  kind: string;
  /** Unix seconds. */
  at: number;
  /** The pool the event is about (`eip155:<chainId>:<address>`), or null. */
  poolId: string | null;
  summary: string;
  data: Record<string, unknown>;
};

/**
 * A stored event in its served shape: the one place that shapes an event, for the activity reader and the alert
 * deliveries alike (a row whose data text is not a JSON object keeps that text under `data.text`).
 */
export function toActivityItem(
  row: Pick<ActivityEvent, "id" | "kind" | "at" | "chain_id" | "address" | "summary" | "data_json">,
): ActivityItem {
  return {
    id: Number(row.id),
    kind: row.kind,
    at: Number(row.at),
    poolId:
      row.chain_id === null || row.address === null
        ? null
        : formatPoolId({ chainId: Number(row.chain_id), address: row.address }),
    summary: row.summary,
    data: parseData(row.data_json),
  };
}

/** The event's data object (a row whose text is not a JSON object keeps it under `text`). */
function parseData(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  return { text };
}

/**
 * A page of the activity log, newest first: at most `limit` events with an id below `beforeId` (all when null).
 * Ids only grow, so paging down by id neither skips nor repeats while new events arrive above the first page. A
 * subscription's test events (`alert.test`) are never in it.
 */
export async function listActivity(
  db: Kysely<Database>,
  parameters: { limit: number; beforeId: number | null; kinds?: readonly string[] },
): Promise<ActivityEvent[]> {
  let query = db.selectFrom("activity_events").selectAll().where("kind", "!=", ALERT_TEST_KIND);
  if (parameters.beforeId !== null) query = query.where("id", "<", parameters.beforeId);
  if (parameters.kinds && parameters.kinds.length > 0) query = query.where("kind", "in", parameters.kinds);
  const rows = await query.orderBy("id", "desc").limit(parameters.limit).execute();
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** How many events of each kind the log holds (for the roadmap's counts; test events left out). */
export async function countActivityByKind(db: Kysely<Database>): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom("activity_events")
    .where("kind", "!=", ALERT_TEST_KIND)
    .select((eb) => ["kind", eb.fn.countAll<number>().as("n")])
    .groupBy("kind")
    .execute();
  return Object.fromEntries(rows.map((row) => [row.kind, Number(row.n)]));
}

/**
 * Every event whose kind starts with `prefix` (e.g. `registry.`), oldest first, as {@link ActivityItem}s; with
 * `atLeast`, only those at that time or later. On SQLite a range on the `(kind, id)`
 * index (`kind >= prefix and kind < prefix⁺`, exact under its bytewise collation), so it stays cheap beside a large
 * log of other kinds; on PostgreSQL a `LIKE 'prefix%'`, since a range is not a prefix test under a locale collation.
 */
export async function listActivityByKindPrefix(
  db: Kysely<Database>,
  prefix: string,
  options: { atLeast?: number } = {},
): Promise<ActivityItem[]> {
  if (prefix === "") throw new Error("listActivityByKindPrefix needs a non-empty prefix");
  const upper = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const rows = await db
    .selectFrom("activity_events")
    .selectAll()
    .$if(postgres, (qb) => qb.where("kind", "like", `${prefix.replace(/[\\%_]/g, "\\$&")}%`))
    .$if(!postgres, (qb) => qb.where("kind", ">=", prefix).where("kind", "<", upper))
    .$if(options.atLeast !== undefined, (qb) => qb.where("at", ">=", options.atLeast!))
    .orderBy("id", "asc")
    .execute();
  return rows.map(toActivityItem);
}

/** How many events the log holds (test events left out). */
export async function countActivity(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("activity_events")
    .where("kind", "!=", ALERT_TEST_KIND)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
