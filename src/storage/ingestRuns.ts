import type { Kysely } from "kysely";
import type { Database, IngestRun } from "./schema";

/** What one source did during a pass (stored as JSON in `ingest_runs.sources_json`). */
export interface SourceReport {
  ok: boolean;
  error?: string;
  rows?: number;
  /** Values of the source's answer left out one by one (negative or missing volumes, low-confidence prices). */
  dropped?: number;
  /**
   * Rows of the answer skipped one by one: not the documented shape, a number not finite, negative or above the
   * bound, a timestamp out of range (docs/data.md). The rest of the answer is used.
   */
  rejectedRows?: number;
  /** Keys answered twice with different values in one pass: every copy refused, the stored value kept. */
  conflicts?: number;
  /** The first reasons for `rejectedRows` and `conflicts` (at most {@link MAX_REPORT_REASONS}), e.g. `data[12].tvlUsd: above 1e13`. */
  reasons?: string[];
}

/** Most reasons kept in one source's report. */
export const MAX_REPORT_REASONS = 5;

/** Why a run left "running" by a stopped process was closed (the start of its `pass` report's error). */
export const INTERRUPTED_ERROR = "interrupted: the process running the pass stopped before it finished";

/** Records the start of a pass with status "running", by `instanceId`, its heartbeat at `startedAt`. */
export async function startIngestRun(
  db: Kysely<Database>,
  parameters: { id: string; startedAt: number; instanceId?: string | null },
): Promise<void> {
  await db
    .insertInto("ingest_runs")
    .values({
      id: parameters.id,
      started_at: parameters.startedAt,
      finished_at: null,
      status: "running",
      sources_json: "{}",
      instance_id: parameters.instanceId ?? null,
      heartbeat_at: parameters.startedAt,
    })
    .execute();
}

/** Renews a running pass's heartbeat (Unix seconds): it is not closed as interrupted while the heartbeat is recent. */
export async function heartbeatIngestRun(db: Kysely<Database>, parameters: { id: string; at: number }): Promise<void> {
  await db
    .updateTable("ingest_runs")
    .set({ heartbeat_at: parameters.at })
    .where("id", "=", parameters.id)
    .where("status", "=", "running")
    .execute();
}

/**
 * Closes a pass with its final status and per-source report, if it is still running (a run is closed once).
 *
 * @returns whether this call closed it (false: already closed, e.g. as interrupted by another process, or unknown).
 */
export async function finishIngestRun(
  db: Kysely<Database>,
  parameters: {
    id: string;
    finishedAt: number;
    status: "ok" | "partial" | "failed";
    sources: Record<string, SourceReport>;
  },
): Promise<boolean> {
  const result = await db
    .updateTable("ingest_runs")
    .set({
      finished_at: parameters.finishedAt,
      status: parameters.status,
      sources_json: JSON.stringify(parameters.sources),
    })
    .where("id", "=", parameters.id)
    .where("status", "=", "running")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Marks as "failed" (finished at `now`, {@link INTERRUPTED_ERROR}) the passes left "running" whose heartbeat (its
 * start for runs from before heartbeats) is at or before `staleBefore`: their process stopped (killed, crashed, cut
 * off). A running pass of a live process keeps its heartbeat recent and is never closed, whichever process it runs
 * in. One UPDATE: of two processes closing at once, each run is closed, and returned, once.
 *
 * @returns the runs this call closed, oldest first.
 */
export async function closeInterruptedRuns(
  db: Kysely<Database>,
  parameters: { now: number; staleBefore: number },
): Promise<IngestRun[]> {
  const rows = await db
    .updateTable("ingest_runs")
    .set({
      status: "failed",
      finished_at: parameters.now,
      sources_json: JSON.stringify({ pass: { ok: false, error: INTERRUPTED_ERROR } }),
    })
    .where("status", "=", "running")
    .where((eb) => eb(eb.fn.coalesce("heartbeat_at", "started_at"), "<=", parameters.staleBefore))
    .returningAll()
    .execute();
  return rows.sort((a, b) => a.started_at - b.started_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The most recent passes, newest first. */
export async function listIngestRuns(db: Kysely<Database>, limit = 20): Promise<IngestRun[]> {
  return db
    .selectFrom("ingest_runs")
    .selectAll()
    .orderBy("started_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/** The most recent finished pass (any status but running), or undefined before the first. */
export async function latestFinishedIngestRun(db: Kysely<Database>): Promise<IngestRun | undefined> {
  return db
    .selectFrom("ingest_runs")
    .selectAll()
    .where("status", "!=", "running")
    .orderBy("started_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** A run's per-source reports (`sources_json`), `{}` when it holds none or cannot be read. */
export function runSourceReports(run: Pick<IngestRun, "sources_json">): Record<string, SourceReport> {
  try {
    const parsed: unknown = JSON.parse(run.sources_json);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
      ? (parsed as Record<string, SourceReport>)
      : {};
  } catch {
    return {};
  }
}

/** How many ingestion passes have been recorded (any status). */
export async function countIngestRuns(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("ingest_runs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
