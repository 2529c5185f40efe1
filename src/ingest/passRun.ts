import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { appendActivity } from "../storage/activity";
import {
  closeInterruptedRuns,
  finishIngestRun,
  heartbeatIngestRun,
  INTERRUPTED_ERROR,
  startIngestRun,
} from "../storage/ingestRuns";
import { assertFence, throwIfStopped, type PassFence } from "../storage/leaderLease";
import type { Database } from "../storage/schema";
import { ingestPassEvent, type IngestPassEventParameters } from "./rows/activityEvents";
import { errorMessage } from "./steps/stepResult";

/**
 * A pass's run bookkeeping (`ingest_runs` and its `ingest.pass` events): opening a run, its heartbeat, closing the runs
 * of stopped processes, and recording the end, once, even when the store did not answer at the time. The pass's steps
 * (`./runIngestionPass`) never touch `ingest_runs` themselves.
 */

/** Defaults of the heartbeat ({@link openPassRun}). */
export const HEARTBEAT_INTERVAL_MS = 10_000;
export const HEARTBEAT_STALE_AFTER_S = 60;

/**
 * The heartbeat of a pass for an ingestion interval: every 10 s (a third of the interval when shorter, at least 1 s),
 * and a run is taken for dead after six missed beats (60 s by default), so a standby that takes over within two
 * intervals also closes the dead leader's run by then.
 */
export function heartbeatFor(ingestIntervalS: number): { intervalMs: number; staleAfterS: number } {
  const intervalMs = Math.min(HEARTBEAT_INTERVAL_MS, Math.max(1000, Math.floor((ingestIntervalS * 1000) / 3)));
  return { intervalMs, staleAfterS: Math.ceil((6 * intervalMs) / 1000) };
}

/** An open run: its id and start, and how it ends. */
export interface PassRun {
  runId: string;
  startedAt: number;
  /** Records the final status, reports and `ingest.pass` event in one fenced transaction. */
  finish(event: Omit<IngestPassEventParameters, "runId" | "startedAt">): Promise<void>;
  /**
   * Records the run as failed with `error` (not fenced: it writes only this run's row and event); when the store does
   * not answer, the next pass of this process on the store writes it first.
   */
  fail(error: unknown, sources: IngestPassEventParameters["sources"], finishedAt: number): Promise<void>;
  /** Stops the heartbeat. */
  close(): void;
}

/**
 * Opens a pass's run: first writes the ends this process could not record earlier (the store did not answer), then
 * closes, as interrupted, the runs whose heartbeat is `staleAfterS` or more old (their process stopped; a run of a
 * live process keeps its heartbeat recent and is left alone), then records the run (with `instanceId`) and keeps its
 * heartbeat every `intervalMs` until {@link PassRun.close}.
 */
export async function openPassRun(
  db: Kysely<Database>,
  parameters: {
    now: () => number;
    instanceId: string | null;
    fence: PassFence | undefined;
    heartbeat?: { intervalMs?: number; staleAfterS?: number };
    log: (line: string) => void;
  },
): Promise<PassRun> {
  const { now, instanceId: instance, fence, log } = parameters;
  const startedAt = now();
  const runId = `${startedAt}-${randomUUID()}`;
  const staleAfterS = parameters.heartbeat?.staleAfterS ?? HEARTBEAT_STALE_AFTER_S;
  throwIfStopped(fence);
  await recordUnrecordedEnds(db, log);
  const closed = await closeInterrupted(db, { now: startedAt, staleBefore: startedAt - staleAfterS, fence });
  if (closed > 0)
    log(`closed ${closed} pass(es) left running by a stopped process (no heartbeat for ${staleAfterS} s)`);
  await startIngestRun(db, { id: runId, startedAt, instanceId: instance });
  const heartbeat = setInterval(() => {
    heartbeatIngestRun(db, { id: runId, at: now() }).catch((error) => log(`heartbeat: ${errorMessage(error)}`));
  }, parameters.heartbeat?.intervalMs ?? HEARTBEAT_INTERVAL_MS);
  heartbeat.unref();
  return {
    runId,
    startedAt,
    finish: (event) => finishRun(db, { ...event, runId, startedAt }, fence),
    fail: async (error, sources, finishedAt) => {
      const end: IngestPassEventParameters = {
        runId,
        instance,
        status: "failed",
        startedAt,
        finishedAt,
        sources: { ...sources, pass: { ok: false, error: errorMessage(error) } },
      };
      await finishRun(db, end).catch(() => {
        // The store does not answer: the next pass of this process writes this end first.
        const pending = unrecordedEnds.get(db) ?? [];
        pending.push(end);
        unrecordedEnds.set(db, pending);
      });
    },
    close: () => clearInterval(heartbeat),
  };
}

/**
 * Marks the runs whose heartbeat is at or before `staleBefore` as failed, each with its `ingest.pass` event, in one
 * fenced transaction; a run is closed (and its event appended) once, whichever process closes it.
 */
async function closeInterrupted(
  db: Kysely<Database>,
  parameters: { now: number; staleBefore: number; fence: PassFence | undefined },
): Promise<number> {
  const { now, staleBefore, fence } = parameters;
  return db.transaction().execute(async (trx) => {
    await assertFence(trx, fence);
    const closed = await closeInterruptedRuns(trx, { now, staleBefore });
    if (closed.length === 0) return 0;
    const sources = { pass: { ok: false, error: INTERRUPTED_ERROR } };
    await appendActivity(
      trx,
      closed.map((run) =>
        ingestPassEvent({
          runId: run.id,
          instance: run.instance_id,
          status: "failed",
          startedAt: run.started_at,
          finishedAt: now,
          sources,
        }),
      ),
    );
    return closed.length;
  });
}

/**
 * Records a pass's final status and reports, and its `ingest.pass` event, in one transaction (fenced when given); a
 * run already closed (by another process, as interrupted) is left as it is, and no second event is written.
 */
async function finishRun(db: Kysely<Database>, event: IngestPassEventParameters, fence?: PassFence): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await assertFence(trx, fence);
    const { runId: id, finishedAt, status, sources } = event;
    if (await finishIngestRun(trx, { id, finishedAt, status, sources: { ...sources } })) {
      await appendActivity(trx, [ingestPassEvent(event)]);
    }
  });
}

/**
 * The failed runs of this process whose end could not be written because the store did not answer (a database
 * restart mid-pass), by store. The next pass on that store writes them first, with their own reason, before it looks
 * for runs left running by stopped processes: this process is alive, so its run is not "interrupted".
 */
const unrecordedEnds = new WeakMap<Kysely<Database>, IngestPassEventParameters[]>();

/** Writes the ends {@link unrecordedEnds} holds for `db`, oldest first; stops at the first the store refuses. */
async function recordUnrecordedEnds(db: Kysely<Database>, log: (line: string) => void): Promise<void> {
  const pending = unrecordedEnds.get(db);
  while (pending !== undefined && pending.length > 0) {
    await finishRun(db, pending[0]);
    const event = pending.shift()!;
    log(`pass ${event.runId}: failed (recorded once the store answered again: ${event.sources.pass?.error ?? ""})`);
  }
}
