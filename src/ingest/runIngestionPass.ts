import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Address, PublicClient } from "viem";
import type { IssueOutcome } from "../attest/issueAttestations";
import type { PoolConfig } from "../model/poolConfig";
import { appendActivity } from "../storage/activity";
import {
  closeInterruptedRuns,
  finishIngestRun,
  listRunningRuns,
  startIngestRun,
  type SourceReport,
} from "../storage/ingestRuns";
import type { Store } from "../storage/openStore";
import type { Database } from "../storage/schema";
import type { FeedRequestOptions } from "./feeds/fetchJson";
import { passStatus, type PassStatus } from "./passStatus";
import { poolKey } from "./poolKey";
import { readSources, type FeedUrls } from "./readSources";
import { ingestPassEvent, type IngestPassEventParameters } from "./rows/activityEvents";
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
  /** How logs are paged (defaults: 2000 blocks a request, 200 requests per chain and source, 86 400 s lookback). */
  logs?: Partial<LogReadOptions>;
  /** Days of dex volume history kept per pass. Default 30. */
  dexVolumeDays?: number;
  /** Pools with fewer recorded days than this get DefiLlama `/chart` history backfilled. Default 14. */
  backfillBelowDays?: number;
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
 * One ingestion pass: records itself in `ingest_runs`, runs the source steps (`readSources`: every chain through
 * `readPools`, then its `Swap` logs and the registry's events up to the block it was read at, coin prices, every
 * configured feed), then writes everything they got in ONE transaction (`writePass`: pool columns it has values for,
 * swap volume with its cursors, the daily lowest depth, campaigns, dex volumes, prices and the activity events of
 * those changes), so a crash leaves the database as it was before the pass. Then, unless `issue` is false, issues
 * attestations in a second transaction, and records the status (`passStatus`) with every report and its
 * `ingest.pass` event in a third. A source that fails is reported and the pass goes on (status "partial"); stored
 * values from earlier passes stay and turn stale with time.
 *
 * @param {@link RunIngestionPassParameters}
 * @returns {@link PassReport}
 * @example
 * import { runIngestionPass } from "./ingest/runIngestionPass";
 * const report = await runIngestionPass({ store, pools, chains, feeds, freshnessWindowS: 3600, log: console.log });
 */
export async function runIngestionPass(parameters: RunIngestionPassParameters): Promise<PassReport> {
  const { store, log } = parameters;
  const now = parameters.now ?? defaultNow;
  const db = store.db;
  const startedAt = now();
  const runId = `${startedAt}-${randomUUID()}`;
  const closed = await closeInterrupted(db, startedAt);
  if (closed > 0) log(`closed ${closed} pass(es) left running by a stopped process`);
  activeRuns.add(runId);
  try {
    await startIngestRun(db, { id: runId, startedAt });
    return await runPass(parameters, runId, startedAt);
  } finally {
    activeRuns.delete(runId);
  }
}

/** Passes in progress in this process: a pass starting meanwhile must not mark them interrupted. */
const activeRuns = new Set<string>();

/** Marks the passes a stopped process left running as failed, each with its `ingest.pass` event, in one transaction. */
async function closeInterrupted(db: Kysely<Database>, now: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const exclude = [...activeRuns];
    const running = await listRunningRuns(trx, { exclude });
    if (running.length === 0) return 0;
    const closed = await closeInterruptedRuns(trx, { now, exclude });
    const sources = { pass: { ok: false, error: "interrupted: the process stopped before the pass finished" } };
    await appendActivity(
      trx,
      running.map((run) =>
        ingestPassEvent({ runId: run.id, status: "failed", startedAt: run.started_at, finishedAt: now, sources }),
      ),
    );
    return closed;
  });
}

/** Records a pass's final status and reports, and its `ingest.pass` event, in one transaction. */
async function finishRun(db: Kysely<Database>, event: IngestPassEventParameters): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const { runId: id, finishedAt, status, sources } = event;
    await finishIngestRun(trx, { id, finishedAt, status, sources: { ...sources } });
    await appendActivity(trx, [ingestPassEvent(event)]);
  });
}

/** The steps of a pass, after its run is recorded: read every source concurrently, write, issue, status, finish. */
async function runPass(parameters: RunIngestionPassParameters, runId: string, startedAt: number): Promise<PassReport> {
  const { store, pools, freshnessWindowS, log } = parameters;
  const now = parameters.now ?? defaultNow;
  let sources: Record<string, SourceReport> = {};
  try {
    // Read phase: network (and store reads) only, no writes.
    const read = await readSources({ ...parameters, now });
    sources = read.sources;
    if (read.failure) throw read.failure.reason;
    // Write phase: one transaction, so a crash leaves the store as the previous pass left it.
    await writePass(store.db, { pools, data: read.data, feedsObservedAt: now(), freshnessWindowS });
    // Issuance: reads and signs, then writes in its own short transaction.
    const issued = await issueStep({ db: store.db, pools, issue: parameters.issue, now, freshnessWindowS, log });
    if (issued.report) sources = { ...sources, issue: issued.report };
    const status = passStatus(sources);
    const finishedAt = now();
    const observedPools = countObservedPools(pools, read.data);
    const issuedCount = issued.data.filter((outcome) => outcome.action === "issued").length;
    await finishRun(store.db, { runId, status, startedAt, finishedAt, sources, observedPools, issued: issuedCount });
    log(`pass ${runId}: ${status} (${observedPools} pools observed on chain)`);
    return { runId, status, startedAt, finishedAt, sources, observedPools, issuance: issued.data };
  } catch (error) {
    // A store failure: record it if the store still answers, then let the caller see the error.
    const failed = { ...sources, pass: { ok: false, error: errorMessage(error) } };
    await finishRun(store.db, { runId, status: "failed", startedAt, finishedAt: now(), sources: failed }).catch(
      () => undefined,
    );
    throw error;
  }
}

/** Tracked pools with an on-chain reading from this pass. */
function countObservedPools(pools: readonly PoolConfig[], data: PassData): number {
  const tracked = new Set(pools.map((p) => poolKey(p.chainId, p.address)));
  return [...data.onchain.keys()].filter((key) => tracked.has(key)).length;
}
