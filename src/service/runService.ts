import { mkdirSync } from "node:fs";
import { errorLine } from "../errors/utils";
import { createPublicClient, custom, defineChain, http, numberToHex, type Address, type PublicClient } from "viem";
import type { PoolConfig } from "../ingest/poolsFile";
import type { PassReport } from "../ingest/runIngestionPass";
import { openStore } from "../storage/openStore";
import { loadAttesterKey } from "./attesterKey";
import { createChainClients } from "./chainClients";
import type { ServiceConfig } from "./config";
import { startScheduler, type Scheduler } from "./scheduler";
import { startServer } from "./server";

/** The running service: what `npm start` holds until a signal arrives. */
export interface RunningService {
  /** `http://host:port`. */
  url: string;
  attester: Address;
  registry: { chainId: number; address: Address } | null;
  /** Demo mode: the local chains' RPC URLs. */
  chains: { chainId: number; rpcUrl: string }[];
  /** Stops the scheduler (waiting for a pass in progress), the server, the feeds, the chains and the store. */
  stop(): Promise<void>;
}

export type RunServiceParameters = {
  config: ServiceConfig;
  /** One readable progress line. */
  log: (line: string) => void;
  /** Aborts startup between steps (Ctrl-C while the demo is being built): everything started so far is stopped. */
  signal?: AbortSignal;
};

type Chains = { chainId: number; client: PublicClient }[];
type IngestFeeds = { defillamaYieldsUrl?: string; defillamaApiUrl?: string; merklApiUrl?: string };

/**
 * The main job. Without configuration it runs the demo: local chains with simulated history, each simulated day
 * ingested (no attestations), then one pass that issues attestations (v1 + the registry's v2 block). Then it serves
 * the API and runs a pass every `INGEST_INTERVAL_S`. With `POOLS_FILE` and `RPC_URL_<chainId>` it runs against those.
 *
 * @param {@link RunServiceParameters}
 * @returns the {@link RunningService}; call `stop()` to shut everything down.
 */
export async function runService({ config, log, signal }: RunServiceParameters): Promise<RunningService> {
  const checkpoint = () => {
    if (signal?.aborted) throw new StartupAbortedError();
  };
  const cleanups: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error: Error) => log(`shutdown: ${errorLine(error)}`));
    }
    cleanups.length = 0;
  };

  try {
    mkdirSync(config.dataDir, { recursive: true });
    const key = loadAttesterKey({ source: config.attesterKey });
    log(`attester ${key.address} (${key.origin}${key.file ? `: ${key.file}` : ""})`);

    const store = await openStore(config.database);
    cleanups.push(() => store.close());
    log(`store: ${"file" in config.database ? `SQLite ${config.database.file}` : "PostgreSQL (DATABASE_URL)"}`);

    // The ingestion module is loaded here so that `runService` can be imported without it (route tests).
    const { runIngestionPass } = await import("../ingest/runIngestionPass");

    let pools: PoolConfig[];
    let chains: Chains;
    let feeds: IngestFeeds;
    let registry = config.registry;
    let demoChains: { chainId: number; rpcUrl: string }[] = [];
    let afterPass = async () => {};
    // Demo mode: brings chain time up to the wall clock before a pass (see advanceChainClocks).
    let beforePass = async () => {};

    const pass = async (label: string, options: { chains: Chains; now?: () => number; issue: boolean }) => {
      checkpoint();
      const started = Date.now();
      await beforePass();
      const report = await runIngestionPass({
        store,
        pools,
        chains: options.chains,
        feeds,
        now: options.now,
        issue: options.issue
          ? { privateKey: key.privateKey, lifetimeS: config.attestationLifetimeS, registry: registry ?? undefined }
          : false,
        freshnessWindowS: config.freshnessWindowS,
        log: (line: string) => log(`  ${line}`),
      });
      log(`${label}: ${summarize(report)} in ${Date.now() - started} ms`);
      await afterPass();
    };

    if (config.mode === "configured") {
      const { loadPoolsFile } = await import("../ingest/poolsFile");
      pools = await loadPoolsFile({ path: config.poolsFile as string });
      const missing = [...new Set(pools.map((pool) => pool.chainId))].filter((id) => !(id in config.rpcUrls));
      if (missing.length > 0) {
        throw new Error(
          `POOLS_FILE tracks pools on chain(s) ${missing.join(", ")} without RPC_URL_<chainId>; set them`,
        );
      }
      chains = createChainClients(config.rpcUrls);
      feeds = config.feeds;
      log(`configured: ${pools.length} pool(s) on chain(s) ${Object.keys(config.rpcUrls).join(", ")}`);
    } else {
      const { startDemoChains } = await import("../demo/startDemoChains");
      log(`demo: starting 3 local chains with ${config.demo.days} simulated day(s) (seed ${config.demo.seed})`);
      const dayTimes: number[] = [];
      const demo = await startDemoChains({
        days: config.demo.days,
        seed: config.demo.seed,
        attesterPrivateKey: key.privateKey,
        log,
        // The day's chain time; the day is ingested below, at the last block of that day.
        onDay: async ({ time }) => {
          checkpoint();
          dayTimes.push(time);
        },
      });
      cleanups.push(() => demo.stop());
      demoChains = demo.chains;
      for (const chain of demo.chains) log(`demo: chain ${chain.chainId} at ${chain.rpcUrl}`);
      log(`demo: registry ${demo.registry.address} on chain ${demo.registry.chainId}`);
      registry ??= demo.registry;

      // The loopback feeds describe the demo's own pools; their TVL follows the depth last measured on chain, and
      // their clock follows the simulated day being ingested.
      const { demoPoolConfigs, startFeedServer } = await import("../demo/feedServer");
      const depths = new Map<string, number>();
      let feedClock: number | null = null;
      const feedServer = await startFeedServer({
        pools: demo.pools,
        now: () => feedClock ?? Math.floor(Date.now() / 1000),
        snapshot: (pool) => {
          const depth = depths.get(`${pool.chainId}:${pool.address.toLowerCase()}`);
          return depth === undefined ? undefined : { tvlUsd: depth };
        },
      });
      cleanups.push(() => feedServer.close());
      log(`demo: feeds at ${Object.values(feedServer.urls).join(", ")}`);
      feeds = { ...feedServer.urls, ...definedOnly(config.feeds) };
      pools = demoPoolConfigs(demo.pools);
      afterPass = async () => {
        const rows = await store.db.selectFrom("pools").select(["chain_id", "address", "depth_usd"]).execute();
        for (const row of rows) if (row.depth_usd !== null) depths.set(`${row.chain_id}:${row.address}`, row.depth_usd);
      };
      chains = createChainClients(Object.fromEntries(demo.chains.map((chain) => [chain.chainId, chain.rpcUrl])));

      // Every simulated day but the last, read at that day's last block, without issuing. Days come in order, so
      // each day's block search starts from the previous day's block.
      const lastBlock = new Map<number, bigint>();
      for (const [index, time] of dayTimes.slice(0, -1).entries()) {
        const pinned = await Promise.all(
          demo.chains.map(async (chain) => {
            const { client, blockNumber } = await pinnedClient({
              chainId: chain.chainId,
              rpcUrl: chain.rpcUrl,
              time,
              from: lastBlock.get(chain.chainId) ?? 0n,
            });
            lastBlock.set(chain.chainId, blockNumber);
            return { chainId: chain.chainId, client };
          }),
        );
        feedClock = time;
        await pass(`demo day ${index + 1}/${dayTimes.length}`, { chains: pinned, now: () => time, issue: false });
      }
      feedClock = null;
      // The demo chains mine only when the simulation sends transactions, and it is over: without a new block every
      // pass would read the same frozen block, whose timestamp turns stale after FRESHNESS_WINDOW_S.
      beforePass = () => advanceChainClocks({ rpcUrls: demo.chains.map((chain) => chain.rpcUrl) });
    }

    await pass("ingestion pass (issuing)", { chains, issue: true });

    checkpoint();
    const { app, url } = await startServer({ store, config, attester: { address: key.address, registry } });
    cleanups.push(async () => {
      await app.close();
    });
    log(`serving ${url}/api/v1 (OpenAPI: ${url}/api/v1/openapi.json)`);

    const scheduler: Scheduler = startScheduler({
      intervalMs: config.ingestIntervalS * 1000,
      run: async () => {
        await pass("ingestion pass", { chains, issue: true });
        app.poolsRepository.invalidate();
      },
      onError: (error) => log(`ingestion pass failed: ${errorLine(error)}`),
    });
    cleanups.push(() => scheduler.stop());
    log(`next ingestion pass in ${config.ingestIntervalS} s`);

    return {
      url,
      attester: key.address,
      registry,
      chains: demoChains,
      stop: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/** Startup was aborted by the caller's signal; everything started so far has been stopped. */
export class StartupAbortedError extends Error {
  override name = "StartupAbortedError";
  constructor() {
    super("startup aborted");
  }
}

/**
 * A client that reads a chain as it was at the last block at or before `time`: every "latest" block tag becomes that
 * block, so an ingestion pass sees the day as it ended. Local chains keep all history, so this is exact.
 */
async function pinnedClient({
  chainId,
  rpcUrl,
  time,
  from,
}: {
  chainId: number;
  rpcUrl: string;
  time: number;
  /** A block known to be at or before `time`: the search starts there. */
  from: bigint;
}): Promise<{ client: PublicClient; blockNumber: bigint }> {
  const live = createPublicClient({ transport: http(rpcUrl) });
  let low = from;
  let high = await live.getBlockNumber();
  while (low < high) {
    const mid = (low + high + 1n) / 2n;
    if ((await live.getBlock({ blockNumber: mid })).timestamp <= BigInt(time)) low = mid;
    else high = mid - 1n;
  }
  const block = numberToHex(low);
  const tags = new Set(["latest", "pending", "safe", "finalized"]);
  const pin = (tag: unknown) => (tag === undefined || (typeof tag === "string" && tags.has(tag)) ? block : tag);
  const chain = defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const client = createPublicClient({
    chain,
    transport: custom({
      async request({ method, params }: { method: string; params?: unknown[] }) {
        const args = [...(params ?? [])];
        if (method === "eth_blockNumber") return block;
        if (method === "eth_getBlockByNumber") args[0] = pin(args[0]);
        if (method === "eth_call" || method === "eth_getBalance" || method === "eth_getCode") args[1] = pin(args[1]);
        if (method === "eth_getStorageAt") args[2] = pin(args[2]);
        return live.request({ method, params: args } as never);
      },
    }),
  }) as PublicClient;
  return { client, blockNumber: low };
}

/**
 * Mines one empty block at the wall-clock time on each local chain whose latest block is older than now (Hardhat's
 * `evm_setNextBlockTimestamp` + `evm_mine`), so that depth read at "latest" is observed now. Never moves a chain
 * backwards, and leaves a chain alone whose latest block is already at or past now.
 */
export async function advanceChainClocks({
  rpcUrls,
  now = Math.floor(Date.now() / 1000),
}: {
  rpcUrls: string[];
  now?: number;
}): Promise<void> {
  await Promise.all(
    rpcUrls.map(async (rpcUrl) => {
      const client = createPublicClient({ transport: http(rpcUrl) });
      const latest = await client.getBlock({ blockTag: "latest" });
      if (Number(latest.timestamp) >= now) return;
      // Local-chain methods, outside viem's public RPC schema.
      const request = client.request as (args: { method: string; params: unknown[] }) => Promise<unknown>;
      await request({ method: "evm_setNextBlockTimestamp", params: [numberToHex(now)] });
      await request({ method: "evm_mine", params: [] });
    }),
  );
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** One line describing a pass: status, pools observed on chain, attestations issued / kept, failing sources. */
function summarize(report: PassReport): string {
  const count = (action: string) => report.issuance.filter((outcome) => outcome.action === action).length;
  const failing = Object.entries(report.sources)
    .filter(([, source]) => !source.ok)
    .map(([name]) => name);
  return [
    report.status,
    `${report.observedPools} pool(s) observed`,
    ...(report.issuance.length > 0
      ? [`${count("issued")} issued, ${count("kept")} kept, ${count("none")} without`]
      : []),
    ...(failing.length > 0 ? [`failing: ${failing.join(", ")}`] : []),
  ].join(", ");
}
