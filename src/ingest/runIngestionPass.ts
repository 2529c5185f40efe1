import { randomUUID } from "node:crypto";
import type { Address, Hex, PublicClient } from "viem";
import { issueAttestations, type IssueOutcome } from "../attest/issueAttestations";
import { DEFILLAMA_CHAINS, fetchDexOverview } from "./feeds/defillamaDexVolumes";
import {
  fetchDefillamaChart,
  fetchDefillamaPools,
  type DefillamaChartPoint,
  type DefillamaPool,
} from "./feeds/defillamaYields";
import type { FeedRequestOptions } from "./feeds/fetchJson";
import { fetchMerklOpportunities, type MerklOpportunity } from "./feeds/merkl";
import { readPools, type OnchainObservation } from "./onchain/readPools";
import type { PoolConfig } from "./poolsFile";
import type { Store } from "../storage/openStore";
import { upsertCampaigns } from "../storage/campaigns";
import { upsertDexVolumes } from "../storage/dexVolumes";
import { closeInterruptedRuns, finishIngestRun, startIngestRun, type SourceReport } from "../storage/ingestRuns";
import { backfillDailyDepth, getDailyHistory, recordDailyDepth, utcDay } from "../storage/poolDaily";
import { upsertPool, type PoolValues } from "../storage/pools";
import type { Campaign, DexVolume } from "../storage/schema";

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
  issue?: { privateKey: Hex; lifetimeS: number; registry?: { chainId: number; address: Address } } | false;
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
  status: "ok" | "partial" | "failed";
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
const message = (error: unknown) =>
  error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error);
const key = (chainId: number, address: string) => `${chainId}:${address.toLowerCase()}`;

/**
 * One ingestion pass: records itself in `ingest_runs`, reads every chain (engineer A's `readPools`) and every
 * configured feed, then writes everything it got in ONE transaction (pool columns it has values for, the daily
 * lowest depth, campaigns, dex volumes), so a crash leaves the database as it was before the pass. Then, unless
 * `issue` is false, issues attestations in a second transaction. A source that fails is reported and the pass goes
 * on (status "partial"); stored values from earlier passes stay and turn stale with time.
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

async function runPass(parameters: RunIngestionPassParameters, runId: string, startedAt: number): Promise<PassReport> {
  const { store, pools, chains, feeds, freshnessWindowS, log } = parameters;
  const now = parameters.now ?? defaultNow;
  const feedOptions: FeedRequestOptions = { ...parameters.feedOptions, log };
  const db = store.db;

  const sources: Record<string, SourceReport> = {};
  try {
    const configByKey = new Map(pools.map((p) => [key(p.chainId, p.address), p]));
    const chainIds = [...new Set(pools.map((p) => p.chainId))].sort((a, b) => a - b);

    // ---- Read phase: network only, no writes. ----
    const onchain = new Map<string, { observation: OnchainObservation; block: string; observedAt: number }>();
    const readChains = chainIds.map(async (chainId) => {
      const refs = pools.filter((p) => p.chainId === chainId);
      const client = chains.find((c) => c.chainId === chainId)?.client;
      const name = `chain:${chainId}`;
      if (!client) {
        sources[name] = { ok: false, error: "no RPC client configured for this chain", rows: 0 };
        return;
      }
      try {
        const result = await readPools({
          client,
          pools: refs.map((p) => ({
            chainId,
            address: p.address,
            kind: p.kind,
            ...(p.lendingPool ? { lendingPool: p.lendingPool } : {}),
            ...(p.underlying ? { underlying: p.underlying } : {}),
          })),
        });
        for (const observation of result.observations) {
          onchain.set(key(chainId, observation.address), {
            observation,
            block: result.blockNumber.toString(),
            observedAt: result.observedAt,
          });
        }
        const failed = result.failures.map((f) => `${f.address}: ${f.error}`);
        sources[name] = {
          ok: failed.length === 0,
          rows: result.observations.length,
          ...(failed.length > 0
            ? { error: `${failed.length} pool(s) failed: ${failed.join("; ").slice(0, 500)}` }
            : {}),
        };
      } catch (error) {
        sources[name] = { ok: false, error: message(error), rows: 0 };
        log(`${name}: ${message(error)}`);
      }
    });

    let llamaPools: Map<string, DefillamaPool> | null = null;
    const readYields = (async () => {
      if (!feeds.defillamaYieldsUrl || !pools.some((p) => p.defillamaId)) return;
      try {
        const all = await fetchDefillamaPools({ ...feedOptions, yieldsUrl: feeds.defillamaYieldsUrl });
        llamaPools = new Map(all.map((p) => [p.pool, p]));
        const matched = pools.filter((p) => p.defillamaId && llamaPools!.has(p.defillamaId)).length;
        sources["defillama-yields"] = { ok: true, rows: matched };
      } catch (error) {
        sources["defillama-yields"] = { ok: false, error: message(error), rows: 0 };
      }
    })();

    const charts = new Map<string, DefillamaChartPoint[]>();
    const readCharts = (async () => {
      if (!feeds.defillamaYieldsUrl) return;
      const threshold = parameters.backfillBelowDays ?? 14;
      const wanted: PoolConfig[] = [];
      for (const p of pools) {
        if (!p.defillamaId) continue;
        if ((await getDailyHistory(db, p.chainId, p.address)).length < threshold) wanted.push(p);
      }
      if (wanted.length === 0) return;
      const errors: string[] = [];
      // A few requests at a time: one per pool, only while its history is short.
      const queue = [...wanted];
      const worker = async () => {
        for (let p = queue.shift(); p !== undefined; p = queue.shift()) {
          try {
            const points = await fetchDefillamaChart({
              ...feedOptions,
              yieldsUrl: feeds.defillamaYieldsUrl!,
              poolId: p.defillamaId!,
            });
            charts.set(key(p.chainId, p.address), points);
          } catch (error) {
            errors.push(`${p.defillamaId}: ${message(error)}`);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(4, wanted.length) }, worker));
      sources["defillama-chart"] = {
        ok: errors.length === 0,
        rows: charts.size,
        ...(errors.length ? { error: errors.join("; ").slice(0, 500) } : {}),
      };
    })();

    const dexRows: DexVolume[] = [];
    const readDex = (async () => {
      if (!feeds.defillamaApiUrl) return;
      const days = parameters.dexVolumeDays ?? 30;
      const errors: string[] = [];
      for (const chainId of chainIds) {
        const chain = DEFILLAMA_CHAINS[chainId];
        if (!chain) continue;
        try {
          const overview = await fetchDexOverview({ ...feedOptions, apiUrl: feeds.defillamaApiUrl, chain: chain.slug });
          const observedAt = now();
          for (const [ts, breakdown] of overview.totalDataChartBreakdown.slice(-days)) {
            for (const [protocol, volume] of Object.entries(breakdown)) {
              dexRows.push({
                chain: chain.name,
                protocol,
                day: utcDay(ts),
                volume_usd: volume,
                observed_at: observedAt,
              });
            }
          }
        } catch (error) {
          errors.push(`${chain.slug}: ${message(error)}`);
        }
      }
      sources["defillama-dexs"] = {
        ok: errors.length === 0,
        rows: dexRows.length,
        ...(errors.length ? { error: errors.join("; ").slice(0, 500) } : {}),
      };
    })();

    let opportunities: MerklOpportunity[] | null = null;
    const readMerkl = (async () => {
      if (!feeds.merklApiUrl || chainIds.length === 0) return;
      try {
        opportunities = await fetchMerklOpportunities({ ...feedOptions, merklUrl: feeds.merklApiUrl, chainIds });
        sources.merkl = { ok: true, rows: opportunities.reduce((n, o) => n + o.campaigns.length, 0) };
      } catch (error) {
        sources.merkl = { ok: false, error: message(error), rows: 0 };
      }
    })();

    await Promise.all([...readChains, readYields, readCharts, readDex, readMerkl]);
    const feedsObservedAt = now();

    // ---- Write phase: one transaction, so a crash leaves the store as the previous pass left it. ----
    await db.transaction().execute(async (trx) => {
      for (const config of pools) {
        const k = key(config.chainId, config.address);
        const values: PoolValues = {};
        if (config.defillamaId !== undefined) values.defillama_id = config.defillamaId;
        if (config.merklId !== undefined) values.merkl_id = config.merklId;
        const seen = onchain.get(k);
        if (seen) {
          const o = seen.observation;
          values.state_json = JSON.stringify(o.state);
          if (o.depthUsd !== null && Number.isFinite(o.depthUsd)) {
            values.depth_usd = o.depthUsd;
            values.depth_observed_at = seen.observedAt;
            values.depth_block = seen.block;
          }
          if (o.exitableUsd !== null && Number.isFinite(o.exitableUsd)) values.exitable_usd = o.exitableUsd;
          if (o.supplyRatePercent !== null && Number.isFinite(o.supplyRatePercent)) {
            values.supply_rate_percent = o.supplyRatePercent;
            values.supply_rate_observed_at = seen.observedAt;
          }
        }
        const llama = config.defillamaId
          ? (llamaPools as Map<string, DefillamaPool> | null)?.get(config.defillamaId)
          : undefined;
        if (llama) {
          values.tvl_usd = llama.tvlUsd;
          if (llama.apy !== null && llama.apy !== undefined) values.apy_percent = llama.apy;
          values.feed_observed_at = feedsObservedAt;
          if (llama.volumeUsd1d !== null && llama.volumeUsd1d !== undefined) {
            values.volume_24h_usd = llama.volumeUsd1d;
            values.volume_observed_at = feedsObservedAt;
          }
        }
        await upsertPool(trx, {
          chainId: config.chainId,
          address: config.address,
          kind: config.kind,
          symbol: config.symbol,
          protocol: config.protocol,
          values,
          now: feedsObservedAt,
        });
        if (seen && values.depth_usd !== undefined) {
          await recordDailyDepth(trx, {
            chainId: config.chainId,
            address: config.address,
            depthUsd: values.depth_usd as number,
            observedAt: seen.observedAt,
            block: seen.block,
          });
        }
        const chart = charts.get(k);
        if (chart) {
          // Completed days (before today) only, each day's lowest point, and only on days without a row: an on-chain
          // row is never overwritten. DefiLlama's tvlUsd is the same measure (AMM reserves value; lending
          // supplied − borrowed).
          const today = utcDay(feedsObservedAt);
          const points = chart
            .map((p) => ({ observedAt: Math.floor(Date.parse(p.timestamp) / 1000), depthUsd: p.tvlUsd }))
            .map((p) => ({ ...p, day: utcDay(p.observedAt) }))
            .filter((p) => p.day < today);
          const lowest = new Map<string, { day: string; depthUsd: number; observedAt: number }>();
          for (const p of points) {
            const prev = lowest.get(p.day);
            if (!prev || p.depthUsd < prev.depthUsd) lowest.set(p.day, p);
          }
          await backfillDailyDepth(trx, {
            chainId: config.chainId,
            address: config.address,
            points: [...lowest.values()],
          });
        }
      }
      if (opportunities) {
        const rows: Campaign[] = [];
        for (const o of opportunities as MerklOpportunity[]) {
          for (const c of o.campaigns) {
            rows.push({
              id: c.campaignId,
              chain_id: o.chainId,
              opportunity_id: o.id,
              identifier: o.identifier.toLowerCase(),
              name: o.name,
              type: o.type,
              status: o.status,
              reward_token: c.rewardToken.address.toLowerCase(),
              amount: c.amount,
              apr_percent: o.apr ?? null,
              start_ts: c.startTimestamp,
              end_ts: c.endTimestamp,
              observed_at: feedsObservedAt,
            });
          }
        }
        await upsertCampaigns(trx, rows);
      }
      if (dexRows.length > 0) await upsertDexVolumes(trx, dexRows);
    });
    const observedPools = [...onchain.keys()].filter((k) => configByKey.has(k)).length;

    // ---- Issuance: reads and signs, then writes in its own short transaction. ----
    let issuance: IssueOutcome[] = [];
    if (parameters.issue) {
      const issue = parameters.issue;
      try {
        issuance = await issueAttestations({
          db,
          pools,
          privateKey: issue.privateKey,
          lifetimeS: issue.lifetimeS,
          ...(issue.registry ? { registry: issue.registry } : {}),
          now: now(),
          freshnessWindowS,
          log,
        });
        sources.issue = { ok: true, rows: issuance.filter((o) => o.action === "issued").length };
      } catch (error) {
        sources.issue = { ok: false, error: message(error), rows: 0 };
        log(`issue: ${message(error)}`);
      }
    }

    const reports = Object.values(sources);
    // "failed" when no data source delivered anything; a source that delivered part (some pools) makes it "partial".
    // Issuance is a step, not a source: signing nothing from no data must not turn a failed pass into a partial one.
    const data = Object.entries(sources)
      .filter(([name]) => name !== "issue")
      .map(([, report]) => report);
    const status = reports.every((r) => r.ok)
      ? "ok"
      : data.length > 0 && data.every((r) => !r.ok && !r.rows)
        ? "failed"
        : "partial";
    const finishedAt = now();
    await finishIngestRun(db, { id: runId, finishedAt, status, sources });
    log(`pass ${runId}: ${status} (${observedPools} pools observed on chain)`);
    return { runId, status, startedAt, finishedAt, sources, observedPools, issuance };
  } catch (error) {
    // A store failure: record it if the store still answers, then let the caller see the error.
    sources.pass = { ok: false, error: message(error) };
    await finishIngestRun(db, { id: runId, finishedAt: now(), status: "failed", sources }).catch(() => undefined);
    throw error;
  }
}
