import { randomUUID } from "node:crypto";
import type { PublicClient } from "viem";
import type { IssueOutcome } from "../attest/issueAttestations";
import type { PoolConfig } from "../model/poolConfig";
import { closeInterruptedRuns, finishIngestRun, startIngestRun, type SourceReport } from "../storage/ingestRuns";
import type { Store } from "../storage/openStore";
import type { FeedRequestOptions } from "./feeds/fetchJson";
import { passStatus, type PassStatus } from "./passStatus";
import { poolKey } from "./poolKey";
import { readChainStep } from "./steps/chains";
import { readChartStep } from "./steps/defillamaChart";
import { readDexVolumesStep } from "./steps/defillamaDexVolumes";
import { readYieldsStep } from "./steps/defillamaYields";
import { issueStep, type IssueSettings } from "./steps/issue";
import { readMerklStep } from "./steps/merkl";
import { errorMessage, type StepResult } from "./steps/stepResult";
import { writePass, type PassData } from "./writePass";

/** Feed base URLs; a feed without a URL is not read (and not reported as failing). */
export interface FeedUrls {
  /** e.g. `https://yields.llama.fi` (`/pools`, `/chart/{pool}`). */
  defillamaYieldsUrl?: string;
  /** e.g. `https://api.llama.fi` (`/overview/dexs/{chain}`). */
  defillamaApiUrl?: string;
  /** e.g. `https://api.merkl.xyz` (`/v4/opportunities`). */
  merklApiUrl?: string;
}

/** Parameters of {@link runIngestionPass}. */
export interface RunIngestionPassParameters {
  store: Store;
  pools: readonly PoolConfig[];
  /** One viem public client per chain; pools on a chain without a client are not read on chain. */
  chains: readonly { chainId: number; client: PublicClient }[];
  feeds: FeedUrls;
  /** Clock, Unix seconds. Default wall-clock. */
  now?: () => number;
  /** Attestation issuance, or false to only ingest. */
  issue?: IssueSettings | false;
  /** `FRESHNESS_WINDOW_S`: depth older than this does not anchor a new attestation. */
  freshnessWindowS: number;
  log: (line: string) => void;
  /** Timeout and retry policy for every feed request (defaults: 15 s, 2 retries, 250 ms backoff). */
  feedOptions?: Omit<FeedRequestOptions, "log">;
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
  /** Per source (`chain:<id>`, `defillama-yields`, `defillama-chart`, `defillama-dexs`, `merkl`, `issue`). */
  sources: Record<string, SourceReport>;
  /** Pools with a fresh on-chain depth from this pass. */
  observedPools: number;
  issuance: IssueOutcome[];
}
export type RunIngestionPassReturnType = PassReport;

const defaultNow = () => Math.floor(Date.now() / 1000);

/**
 * One ingestion pass: records itself in `ingest_runs`, runs the source steps concurrently (every chain through
 * `readPools`, every configured feed; `steps/`), then writes everything they got in ONE transaction (`writePass`:
 * pool columns it has values for, the daily lowest depth, campaigns, dex volumes), so a crash leaves the database as
 * it was before the pass. Then, unless `issue` is false, issues attestations in a second transaction, and records
 * the status (`passStatus`) with every report. A source that fails is reported and the pass goes on (status
 * "partial"); stored values from earlier passes stay and turn stale with time.
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
  const closed = await closeInterruptedRuns(db, { now: startedAt, exclude: [...activeRuns] });
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

/** The steps of a pass, after its run is recorded: read every source concurrently, write, issue, status, finish. */
async function runPass(parameters: RunIngestionPassParameters, runId: string, startedAt: number): Promise<PassReport> {
  const { store, pools, freshnessWindowS, log } = parameters;
  const now = parameters.now ?? defaultNow;
  let sources: Record<string, SourceReport> = {};
  try {
    // Read phase: network (and store reads) only, no writes.
    const read = await readSources(parameters);
    sources = read.sources;
    if (read.failure) throw read.failure.reason;
    // Write phase: one transaction, so a crash leaves the store as the previous pass left it.
    await writePass(store.db, { pools, data: read.data, feedsObservedAt: now() });
    // Issuance: reads and signs, then writes in its own short transaction.
    const issued = await issueStep({ db: store.db, pools, issue: parameters.issue, now, freshnessWindowS, log });
    if (issued.report) sources = { ...sources, issue: issued.report };
    const status = passStatus(sources);
    const finishedAt = now();
    await finishIngestRun(store.db, { id: runId, finishedAt, status, sources });
    const observedPools = countObservedPools(pools, read.data);
    log(`pass ${runId}: ${status} (${observedPools} pools observed on chain)`);
    return { runId, status, startedAt, finishedAt, sources, observedPools, issuance: issued.data };
  } catch (error) {
    // A store failure: record it if the store still answers, then let the caller see the error.
    const failed = { ...sources, pass: { ok: false, error: errorMessage(error) } };
    await finishIngestRun(store.db, { id: runId, finishedAt: now(), status: "failed", sources: failed }).catch(
      () => undefined,
    );
    throw error;
  }
}

/** A step's result, or (when it threw: only a store read can) its empty data and the failure. */
type Settled<T> = StepResult<T> & { failure?: { reason: unknown } };

const settle = <T>(step: Promise<StepResult<T>>, empty: T): Promise<Settled<T>> =>
  step.catch((reason: unknown) => ({ report: undefined, data: empty, failure: { reason } }));

/** What the read phase gathered: each configured source's report, the data, and the first step that threw. */
interface ReadSourcesResult {
  sources: Record<string, SourceReport>;
  data: PassData;
  failure?: { reason: unknown };
}

/**
 * Runs every source step concurrently (one per chain, and each feed) and waits for all of them. Reports come out in
 * a fixed order: chains by id, `defillama-yields`, `defillama-chart`, `defillama-dexs`, `merkl`.
 */
async function readSources(parameters: RunIngestionPassParameters): Promise<ReadSourcesResult> {
  const { store, pools, chains, feeds, log } = parameters;
  const feedOptions: FeedRequestOptions = { ...parameters.feedOptions, log };
  const chainIds = [...new Set(pools.map((p) => p.chainId))].sort((a, b) => a - b);
  const [chainsRead, yields, chart, dex, merkl] = await Promise.all([
    Promise.all(
      chainIds.map((chainId) => {
        const client = chains.find((c) => c.chainId === chainId)?.client;
        return settle(readChainStep({ chainId, pools: pools.filter((p) => p.chainId === chainId), client, log }), []);
      }),
    ),
    settle(readYieldsStep({ pools, yieldsUrl: feeds.defillamaYieldsUrl, feedOptions }), null),
    settle(
      readChartStep({
        db: store.db,
        pools,
        yieldsUrl: feeds.defillamaYieldsUrl,
        feedOptions,
        backfillBelowDays: parameters.backfillBelowDays ?? 14,
      }),
      new Map(),
    ),
    settle(
      readDexVolumesStep({
        chainIds,
        apiUrl: feeds.defillamaApiUrl,
        feedOptions,
        days: parameters.dexVolumeDays ?? 30,
        now: parameters.now ?? defaultNow,
      }),
      [],
    ),
    settle(readMerklStep({ chainIds, merklUrl: feeds.merklApiUrl, feedOptions }), null),
  ]);
  const named: [string, Settled<unknown>][] = [
    ...chainIds.map((chainId, i): [string, Settled<unknown>] => [`chain:${chainId}`, chainsRead[i]]),
    ["defillama-yields", yields],
    ["defillama-chart", chart],
    ["defillama-dexs", dex],
    ["merkl", merkl],
  ];
  const sources: Record<string, SourceReport> = {};
  for (const [name, step] of named) if (step.report) sources[name] = step.report;
  const failure = named.find(([, step]) => step.failure)?.[1].failure;
  const readings = chainsRead.flatMap((step) => step.data);
  const data: PassData = {
    onchain: new Map(readings.map((r) => [poolKey(r.observation.chainId, r.observation.address), r])),
    llamaPools: yields.data,
    charts: chart.data,
    dexVolumes: dex.data,
    opportunities: merkl.data,
  };
  return { sources, data, ...(failure ? { failure } : {}) };
}

/** Tracked pools with an on-chain reading from this pass. */
function countObservedPools(pools: readonly PoolConfig[], data: PassData): number {
  const tracked = new Set(pools.map((p) => poolKey(p.chainId, p.address)));
  return [...data.onchain.keys()].filter((key) => tracked.has(key)).length;
}
