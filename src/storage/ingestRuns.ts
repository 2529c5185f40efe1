import type { Kysely } from "kysely";
import type { Database, IngestRun } from "./schema";

/** What one source did during a pass (stored as JSON in `ingest_runs.sources_json`). */
export interface SourceReport {
  ok: boolean;
  error?: string;
  rows?: number;
}

/** Records the start of a pass with status "running". */
export async function startIngestRun(
  db: Kysely<Database>,
  parameters: { id: string; startedAt: number },
): Promise<void> {
  await db
    .insertInto("ingest_runs")
    .values({
      id: parameters.id,
      started_at: parameters.startedAt,
      finished_at: null,
      status: "running",
      sources_json: "{}",
    })
    .execute();
}

/** Closes a pass with its final status and per-source report. */
export async function finishIngestRun(
  db: Kysely<Database>,
  parameters: {
    id: string;
    finishedAt: number;
    status: "ok" | "partial" | "failed";
    sources: Record<string, SourceReport>;
  },
): Promise<void> {
  await db
    .updateTable("ingest_runs")
    .set({
      finished_at: parameters.finishedAt,
      status: parameters.status,
      sources_json: JSON.stringify(parameters.sources),
    })
    .where("id", "=", parameters.id)
    .execute();
}

/**
 * Marks passes left "running" by a process that died (killed, crashed) as "failed", so the record never shows a pass
 * running forever. Call before starting a new pass; returns how many were closed.
 */
export async function closeInterruptedRuns(
  db: Kysely<Database>,
  parameters: { now: number; /** Runs still in progress in this process: never closed. */ exclude?: readonly string[] },
): Promise<number> {
  const exclude = parameters.exclude ?? [];
  const result = await db
    .updateTable("ingest_runs")
    .set({
      status: "failed",
      finished_at: parameters.now,
      sources_json: JSON.stringify({
        pass: { ok: false, error: "interrupted: the process stopped before the pass finished" },
      }),
    })
    .where("status", "=", "running")
    .$if(exclude.length > 0, (qb) => qb.where("id", "not in", exclude))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Passes left "running" (except those in `exclude`, still in progress in this process), oldest first. */
export async function listRunningRuns(
  db: Kysely<Database>,
  parameters: { exclude?: readonly string[] } = {},
): Promise<IngestRun[]> {
  const exclude = parameters.exclude ?? [];
  return db
    .selectFrom("ingest_runs")
    .selectAll()
    .where("status", "=", "running")
    .$if(exclude.length > 0, (qb) => qb.where("id", "not in", exclude))
    .orderBy("started_at")
    .orderBy("id")
    .execute();
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

/** How many ingestion passes have been recorded (any status). */
export async function countIngestRuns(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("ingest_runs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
