import { PostgresAdapter, type Kysely } from "kysely";
import type { ActivityEvent, Database } from "./schema";

/** One event to append to the activity log. */
export type NewActivity = {
  /** e.g. `ingest.pass`, `attestation.issued`, `pool.stale`, `pool.fresh`, `campaign.started`, `campaign.ended`. */
  kind: string;
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
 * event exists exactly when its change does (the alert outbox reads the same log).
 *
 * @param db an open transaction (or the store's Kysely instance for a change of one statement).
 * @returns the ids given to the events, in order.
 */
export async function appendActivity(db: Kysely<Database>, events: readonly NewActivity[]): Promise<number[]> {
  const ids: number[] = [];
  for (const event of events) {
    const row = await db
      .insertInto("activity_events")
      .values({
        kind: event.kind,
        at: event.at,
        chain_id: event.pool?.chainId ?? null,
        address: event.pool ? event.pool.address.toLowerCase() : null,
        summary: event.summary,
        data_json: JSON.stringify(event.data),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    ids.push(Number(row.id));
  }
  return ids;
}

/**
 * A page of the activity log, newest first: at most `limit` events with an id below `beforeId` (all when null).
 * Ids only grow, so paging down by id neither skips nor repeats while new events arrive above the first page.
 */
export async function listActivity(
  db: Kysely<Database>,
  parameters: { limit: number; beforeId: number | null; kinds?: readonly string[] },
): Promise<ActivityEvent[]> {
  let query = db.selectFrom("activity_events").selectAll();
  if (parameters.beforeId !== null) query = query.where("id", "<", parameters.beforeId);
  if (parameters.kinds && parameters.kinds.length > 0) query = query.where("kind", "in", parameters.kinds);
  const rows = await query.orderBy("id", "desc").limit(parameters.limit).execute();
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** How many events of each kind the log holds (for the roadmap's counts). */
export async function countActivityByKind(db: Kysely<Database>): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom("activity_events")
    .select((eb) => ["kind", eb.fn.countAll<number>().as("n")])
    .groupBy("kind")
    .execute();
  return Object.fromEntries(rows.map((row) => [row.kind, Number(row.n)]));
}

/**
 * Every event whose kind starts with `prefix` (e.g. `registry.`), oldest first. On SQLite a range on the `(kind, id)`
 * index (`kind >= prefix and kind < prefix⁺`, exact under its bytewise collation), so it stays cheap beside a large
 * log of other kinds; on PostgreSQL a `LIKE 'prefix%'`, since a range is not a prefix test under a locale collation.
 */
export async function listActivityByKindPrefix(db: Kysely<Database>, prefix: string): Promise<ActivityEvent[]> {
  if (prefix === "") throw new Error("listActivityByKindPrefix needs a non-empty prefix");
  const upper = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const rows = await db
    .selectFrom("activity_events")
    .selectAll()
    .$if(postgres, (qb) => qb.where("kind", "like", `${prefix.replace(/[\\%_]/g, "\\$&")}%`))
    .$if(!postgres, (qb) => qb.where("kind", ">=", prefix).where("kind", "<", upper))
    .orderBy("id", "asc")
    .execute();
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** How many events the log holds. */
export async function countActivity(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("activity_events")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
