import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Address, PublicClient } from "viem";
import type { IssueOutcome } from "../attest/issueAttestations";
import type { PoolConfig } from "../model/poolConfig";
import { appendActivity } from "../storage/activity";
import {
  closeInterruptedRuns,
  finishIngestRun,
  heartbeatIngestRun,
  INTERRUPTED_ERROR,
  startIngestRun,
  type SourceReport,
} from "../storage/ingestRuns";
import { assertFence, throwIfStopped, type PassFence } from "../storage/leaderLease";
import type { Store } from "../storage/openStore";
import type { Database } from "../storage/schema";
import type { FeedRequestOptions } from "./feeds/fetchJson";
import { GRADE_STEP, passStatus, type PassStatus } from "./passStatus";
import { poolKey } from "./poolKey";
import { readSources, type FeedUrls } from "./readSources";
import { ingestPassEvent, type IngestPassEventParameters } from "./rows/activityEvents";
import { gradeStep } from "./steps/grade";
import { issueStep, type IssueSettings } from "./steps/issue";
import { errorMessage } from "./steps/stepResult";
import type { LogReadOptions } from "./steps/swapLogs";
import { writePass, type PassData } from "./writePass";

export type { FeedUrls } from "./readSources";

/** Parameters of {@link runIngestionPass}. */
export interface RunIngestionPassParameters {
  store: Store;
  pools: readonly PoolConfig[];
  /** One viem public client per chain; pools on a chain without a client are not read on chain. */
  chains: readonly { chainId: number; client: PublicClient }[];
  feeds: FeedUrls;
  /** The AttestationRegistry whose events become `registry.<EventName>` activity events; null or absent: none. */
  registry?: { chainId: number; address: Address } | null;
  /** Clock, Unix seconds. Default wall-clock. */
  now?: () => number;
  /** Attestation issuance, or false to only ingest. */
  issue?: IssueSettings | false;
  /** `FRESHNESS_WINDOW_S`: depth older than this does not anchor a new attestation, and a pool turns stale. */
  freshnessWindowS: number;
  log: (line: string) => void;
  /** Timeout and retry policy for every feed request (defaults: 15 s, 2 retries, 250 ms backoff). */
  feedOptions?: Omit<FeedRequestOptions, "log">;
  /** `PRICE_MIN_CONFIDENCE`: a coin price whose DefiLlama `confidence` is below this is not used. Default 0.9. */
  priceMinConfidence?: number;
  /** How logs are paged (defaults: 2000 blocks a request, 200 requests per chain and source, 86 400 s lookback). */
  logs?: Partial<LogReadOptions>;
  /** Days of dex volume history kept per pass. Default 30. */
  dexVolumeDays?: number;
  /** Pools with fewer recorded days than this get DefiLlama `/chart` history backfilled. Default 14. */
  backfillBelowDays?: number;
  /** `INSTANCE_ID`: recorded on the run and in its `ingest.pass` event's `data.instance` (null when absent). */
  instanceId?: string;
  /**
   * The lease the pass runs under and the signal that stops it: checked first in every write transaction of the pass
   * (`assertFence`) and before each step, so a pass whose lease was lost, or that was asked to stop, commits nothing
   * from then on. Absent: nothing to check (a single process without leader election, tests).
   */
  fence?: PassFence;
  /**
   * The run's heartbeat (`ingest_runs.heartbeat_at`, on the pass's clock): renewed every `intervalMs` (default
   * 10 000) while the pass runs; a "running" run whose heartbeat is `staleAfterS` (default 60) or more older than a
   * starting pass is closed by it as interrupted.
   */
  heartbeat?: { intervalMs?: number; staleAfterS?: number };
}

/** What a pass did. */
export interface PassReport {
  runId: string;
  status: PassStatus;
  startedAt: number;
  finishedAt: number;
  /**
   * Per source (`chain:<id>`, `swaps:<id>`, `registry`, `defillama-coins`, `defillama-yields`, `defillama-chart`,
   * `defillama-dexs`, `merkl`, `issue`).
   */
  sources: Record<string, SourceReport>;
  /** Pools with a fresh on-chain depth from this pass. */
  observedPools: number;
  issuance: IssueOutcome[];
}
export type RunIngestionPassReturnType = PassReport;

const defaultNow = () => Math.floor(Date.now() / 1000);

/** Defaults of {@link RunIngestionPassParameters.heartbeat}. */
export const HEARTBEAT_INTERVAL_MS = 10_000;
export const HEARTBEAT_STALE_AFTER_S = 60;

/**
 * One ingestion pass: first closes, as interrupted, the runs whose heartbeat is old (their process stopped; a run of
 * a live process keeps its heartbeat recent and is left alone), then records itself in `ingest_runs` (with
 * `instanceId`) and keeps its heartbeat, runs the source steps (`readSources`: every chain through `readPools`, then
 * its `Swap` logs and the registry's events up to the block it was read at, coin prices, every configured feed), then
 * writes everything they got in ONE transaction (`writePass`: pool columns it has values for, swap volume with its
 * cursors, the daily lowest depth, campaigns, dex volumes, prices and the activity events of those changes), so a
 * crash leaves the database as it was before the pass. Then, unless `issue` is false, issues attestations in a second
 * transaction, and records the status (`passStatus`) with every report and its `ingest.pass` event in a third. Every
 * one of these transactions first checks the `fence` (the lease, the stop signal). A source that fails is reported
 * and the pass goes on (status "partial"); stored values from earlier passes stay and turn stale with time. A pass
 * that cannot go on (a store error, its lease lost, a stop) records its run as "failed" with the reason, when the
 * store answers, and throws.
 *
 * @param {@link RunIngestionPassParameters}
 * @returns {@link PassReport}
 * @throws `LeaseLostError` / `PassAbortedError` (src/errors/lease.ts) when the fence stops it, or the store's error.
 * @example
 * import { runIngestionPass } from "./ingest/runIngestionPass";
 * const report = await runIngestionPass({ store, pools, chains, feeds, freshnessWindowS: 3600, log: console.log });
 */
export async function runIngestionPass(parameters: RunIngestionPassParameters): Promise<PassReport> {
  const { store, log, fence } = parameters;
  const now = parameters.now ?? defaultNow;
  const db = store.db;
  const startedAt = now();
  const runId = `${startedAt}-${randomUUID()}`;
  const staleAfterS = parameters.heartbeat?.staleAfterS ?? HEARTBEAT_STALE_AFTER_S;
  throwIfStopped(fence);
  await recordUnrecordedEnds(db, log);
  const closed = await closeInterrupted(db, { now: startedAt, staleBefore: startedAt - staleAfterS, fence });
  if (closed > 0)
    log(`closed ${closed} pass(es) left running by a stopped process (no heartbeat for ${staleAfterS} s)`);
  await startIngestRun(db, { id: runId, startedAt, instanceId: parameters.instanceId ?? null });
  const heartbeat = setInterval(() => {
    heartbeatIngestRun(db, { id: runId, at: now() }).catch((error) => log(`heartbeat: ${errorMessage(error)}`));
  }, parameters.heartbeat?.intervalMs ?? HEARTBEAT_INTERVAL_MS);
  heartbeat.unref();
  try {
    return await runPass(parameters, runId, startedAt);
  } finally {
    clearInterval(heartbeat);
  }
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

/** `work`, or the fence's stop error as soon as its signal aborts (the abandoned work's outcome is ignored). */
async function untilStopped<T>(work: Promise<T>, fence: PassFence | undefined): Promise<T> {
  const signal = fence?.signal;
  if (!signal) return work;
  work.catch(() => undefined);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      try {
        throwIfStopped(fence);
      } catch (error) {
        reject(error);
      }
    };
    signal.addEventListener("abort", onAbort, { once: true });
    if (signal.aborted) onAbort();
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** The steps of a pass, after its run is recorded: read every source concurrently, write, issue, grade, status, finish. */
async function runPass(parameters: RunIngestionPassParameters, runId: string, startedAt: number): Promise<PassReport> {
  const { store, pools, freshnessWindowS, log, fence } = parameters;
  const now = parameters.now ?? defaultNow;
  const instance = parameters.instanceId ?? null;
  let sources: Record<string, SourceReport> = {};
  try {
    // Read phase: network (and store reads) only, no writes; a stop does not wait for it.
    const read = await untilStopped(readSources({ ...parameters, now }), fence);
    sources = read.sources;
    if (read.failure) throw read.failure.reason;
    // Write phase: one transaction, so a crash leaves the store as the previous pass left it.
    await writePass(store.db, { pools, data: read.data, feedsObservedAt: now(), freshnessWindowS }, fence);
    // Issuance: reads and signs, then writes in its own short transaction.
    const issued = await issueStep({ db: store.db, pools, issue: parameters.issue, now, freshnessWindowS, log, fence });
    if (issued.report) sources = { ...sources, issue: issued.report };
    // Grading: the claims whose window closed, by the pass that issues (the leader's), in its own transaction.
    const graded = await gradeStep({ db: store.db, enabled: Boolean(parameters.issue), now, log, fence });
    if (graded.report) sources = { ...sources, [GRADE_STEP]: graded.report };
    const status = passStatus(sources);
    const finishedAt = now();
    const observedPools = countObservedPools(pools, read.data);
    const issuedCount = issued.data.filter((outcome) => outcome.action === "issued").length;
    const event = { runId, instance, status, startedAt, finishedAt, sources, observedPools, issued: issuedCount };
    await finishRun(store.db, event, fence);
    log(`pass ${runId}: ${status} (${observedPools} pools observed on chain)`);
    return { runId, status, startedAt, finishedAt, sources, observedPools, issuance: issued.data };
  } catch (error) {
    // A store failure, a lost lease or a stop: record this run's own end (not fenced: it writes only this run's row
    // and its event) if the store still answers, then let the caller see the error.
    const failed = { ...sources, pass: { ok: false, error: errorMessage(error) } };
    const end: IngestPassEventParameters = {
      runId,
      instance,
      status: "failed",
      startedAt,
      finishedAt: now(),
      sources: failed,
    };
    await finishRun(store.db, end).catch(() => {
      // The store does not answer: the next pass of this process writes this end first.
      const pending = unrecordedEnds.get(store.db) ?? [];
      pending.push(end);
      unrecordedEnds.set(store.db, pending);
    });
    throw error;
  }
}

/** Tracked pools with an on-chain reading from this pass. */
function countObservedPools(pools: readonly PoolConfig[], data: PassData): number {
  const tracked = new Set(pools.map((p) => poolKey(p.chainId, p.address)));
  return [...data.onchain.keys()].filter((key) => tracked.has(key)).length;
}
