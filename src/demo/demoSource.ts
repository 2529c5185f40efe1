import type { Hex } from "viem";
import { createChainClients } from "../chain/chainClients";
import type { ServiceConfig } from "../config/loadConfig";
import { StartupAbortedError } from "../errors/startup";
import type { IngestSource } from "../ingest/source";
import type { Store } from "../storage/openStore";
import { advanceChainClocks } from "./advanceChainClocks";
import { DEMO_CHAINS } from "./demoConfig";
import { demoPoolConfigs, startFeedServer, type FeedServer, type FeedServerPool } from "./feedServer";
import { replayDays } from "./replayDays";
import { startDemoChains } from "./startDemoChains";

export type StartDemoSourceParameters = {
  /** DEMO_DAYS and DEMO_SEED; configured feed URLs and registry override the demo's own. */
  config: Pick<ServiceConfig, "demo" | "feeds" | "registry">;
  /** The attester's key: funded and registered in the demo's AttestationRegistry. */
  attesterPrivateKey: Hex;
  /** The service's store: after each pass, the feeds serve the depth it last measured. */
  store: Pick<Store, "db">;
  log: (line: string) => void;
  /** Aborts the simulation at its next day with {@link StartupAbortedError} (the chains are stopped). */
  signal?: AbortSignal;
};

/**
 * The demo as an {@link IngestSource}: starts the local chains with `DEMO_DAYS` days of simulated history and a
 * loopback feed server describing the demo's own pools. Its history replay ingests each simulated day but the last
 * at that day's last block; before each live pass it brings the chain clocks up to the wall clock; after each pass
 * it feeds the depth just measured back to the feed server.
 *
 * @param {@link StartDemoSourceParameters}
 * @returns the source; `stop()` closes the feed server and stops the chains.
 */
export async function startDemoSource({
  config,
  attesterPrivateKey,
  store,
  log,
  signal,
}: StartDemoSourceParameters): Promise<IngestSource> {
  const { days, seed } = config.demo;
  log(`demo: starting ${DEMO_CHAINS.length} local chains with ${days} simulated day(s) (seed ${seed})`);
  const dayTimes: number[] = [];
  const demo = await startDemoChains({
    days,
    seed,
    attesterPrivateKey,
    log,
    // The day's chain time; the day is ingested by the replay, at the last block of that day.
    onDay: async ({ time }) => {
      if (signal?.aborted) throw new StartupAbortedError();
      dayTimes.push(time);
    },
  });
  for (const chain of demo.chains) log(`demo: chain ${chain.chainId} at ${chain.rpcUrl}`);
  log(`demo: registry ${demo.registry.address} on chain ${demo.registry.chainId}`);

  let feeds: DemoFeeds;
  try {
    feeds = await startDemoFeeds({ pools: demo.pools, store });
  } catch (error) {
    await demo.stop();
    throw error;
  }
  log(`demo: feeds at ${Object.values(feeds.server.urls).join(", ")}`);

  return {
    pools: demoPoolConfigs(demo.pools),
    chains: createChainClients(Object.fromEntries(demo.chains.map((chain) => [chain.chainId, chain.rpcUrl]))),
    feeds: { ...feeds.server.urls, ...definedOnly(config.feeds) },
    registry: config.registry ?? demo.registry,
    localChains: demo.chains,
    replayHistory: (ingest) => replayDays({ chains: demo.chains, dayTimes, ingest, setClock: feeds.setClock }),
    beforePass: () => advanceChainClocks({ rpcUrls: demo.chains.map((chain) => chain.rpcUrl) }),
    afterPass: () => feeds.readDepths(),
    async stop() {
      try {
        await feeds.server.close();
      } finally {
        await demo.stop();
      }
    },
  };
}

/** The demo's loopback feeds, with the depth feedback and the clock they answer with. */
interface DemoFeeds {
  server: FeedServer;
  /** The simulated day being ingested, or null for the wall clock. */
  setClock(time: number | null): void;
  /** Reads the depth last measured for every pool from the store: the feeds' TVL follows it. */
  readDepths(): Promise<void>;
}

/**
 * The loopback feeds describe the demo's own pools; their TVL follows the depth last measured on chain, and their
 * clock follows the simulated day being ingested.
 */
async function startDemoFeeds({
  pools,
  store,
}: {
  pools: readonly FeedServerPool[];
  store: Pick<Store, "db">;
}): Promise<DemoFeeds> {
  const depths = new Map<string, number>();
  let clock: number | null = null;
  const server = await startFeedServer({
    pools,
    now: () => clock ?? Math.floor(Date.now() / 1000),
    snapshot: (pool) => {
      const depth = depths.get(`${pool.chainId}:${pool.address.toLowerCase()}`);
      return depth === undefined ? undefined : { tvlUsd: depth };
    },
  });
  return {
    server,
    setClock(time) {
      clock = time;
    },
    async readDepths() {
      const rows = await store.db.selectFrom("pools").select(["chain_id", "address", "depth_usd"]).execute();
      for (const row of rows) if (row.depth_usd !== null) depths.set(`${row.chain_id}:${row.address}`, row.depth_usd);
    },
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
