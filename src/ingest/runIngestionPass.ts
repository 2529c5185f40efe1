import type { IssueOutcome } from "../attest/issueAttestations";
import type { SourceReport } from "../storage/ingestRuns";
import type { PassFence } from "../storage/leaderLease";
import { openPassRun } from "./passRun";
import { GRADE_STEP, passStatus, type PassStatus } from "./passStatus";
import { readSources, type ReadSourcesParameters } from "./readSources";
import { gradeStep } from "./steps/grade";
import { issueStep, type IssueSettings } from "./steps/issue";
import { untilStopped } from "./untilStopped";
import { writePass } from "./writePass";

export type { FeedUrls } from "./readSources";

/** Parameters of {@link runIngestionPass}: what its sources read (its clock optional), and what the pass itself takes. */
export interface RunIngestionPassParameters extends Omit<ReadSourcesParameters, "now"> {
  /** Clock, Unix seconds. Default wall-clock. */
  now?: () => number;
  /** Attestation issuance, or false to only ingest. */
  issue?: IssueSettings | false;
  /** `FRESHNESS_WINDOW_S`: depth older than this does not anchor a new attestation, and a pool turns stale. */
  freshnessWindowS: number;
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

/**
 * One ingestion pass: first opens its run (`openPassRun` in ./passRun, the run bookkeeping: closes, as interrupted,
 * the runs whose heartbeat is old, then records itself in `ingest_runs` with `instanceId` and keeps its heartbeat),
 * runs the source steps (`readSources`: every chain through `readPools`, then
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
  const { store, pools, freshnessWindowS, log, fence } = parameters;
  const now = parameters.now ?? defaultNow;
  const instance = parameters.instanceId ?? null;
  const run = await openPassRun(store.db, { now, instanceId: instance, fence, heartbeat: parameters.heartbeat, log });
  const { runId, startedAt } = run;
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
    const { observedPools } = read;
    const issuedCount = issued.data.filter((outcome) => outcome.action === "issued").length;
    await run.finish({ instance, status, finishedAt, sources, observedPools, issued: issuedCount });
    log(`pass ${runId}: ${status} (${observedPools} pools observed on chain)`);
    return { runId, status, startedAt, finishedAt, sources, observedPools, issuance: issued.data };
  } catch (error) {
    // A store failure, a lost lease or a stop: record this run's own end if the store still answers, then let the
    // caller see the error.
    await run.fail(error, sources, now());
    throw error;
  } finally {
    run.close();
  }
}
