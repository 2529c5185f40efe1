import { createPublicClient, custom, type Address, type Hex, type PublicClient } from "viem";
import { createChainClients } from "../chain/chainClients";
import type { ServiceConfig } from "../config/loadConfig";
import { StartupAbortedError } from "../errors/startup";
import type { IngestSource } from "../ingest/source";
import type { Store } from "../storage/openStore";
import { listPoolDepths } from "../storage/pools";
import { advanceChainClocks } from "./advanceChainClocks";
import { demoCampaigns, describeCampaigns } from "./demoCampaigns";
import { findDemoPool, type DemoPool } from "./demoChainState";
import { DEMO_CHAINS, DEMO_STALE_POOL } from "./demoConfig";
import type { FeedServerCampaign, FeedServerPool } from "./feedBodies";
import { demoPoolConfigs, startFeedServer, type FeedServer } from "./feedServer";
import { replayDays } from "./replayDays";
import { silencing, type RpcRequest } from "./silencedRpc";
import { startDemoChains, type DemoDay } from "./startDemoChains";

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
 * loopback feed server describing the demo's own pools and Merkl campaigns ({@link demoCampaigns}). Its history
 * replay ingests each simulated day but the last at that day's last block; before each live pass it brings the chain
 * clocks up to the wall clock; after each pass it feeds the depth just measured back to the feed server. One pool,
 * {@link DEMO_STALE_POOL}, stops being reported `silentDays` before the present: from then on the chain's endpoint
 * refuses its reads ({@link silencing}) and the feeds stop listing it, so it stays tracked, its stored values age
 * and it turns stale.
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
  const dayEnds: Pick<DemoDay, "time" | "blocks">[] = [];
  const demo = await startDemoChains({
    days,
    seed,
    attesterPrivateKey,
    log,
    // The day's chain time and last blocks; the day is ingested by the replay, at those blocks.
    // eslint-disable-next-line @typescript-eslint/require-await -- onDay returns a Promise (awaited): the abort is its rejection
    onDay: async ({ time, blocks }) => {
      if (signal?.aborted) throw new StartupAbortedError();
      dayEnds.push({ time, blocks });
    },
  });
  for (const chain of demo.chains) log(`demo: chain ${chain.chainId} at ${chain.rpcUrl}`);
  log(`demo: registry ${demo.registry.address} on chain ${demo.registry.chainId}`);

  // The day being ingested (the replay's, else the present's): the silent pool's source answers up to its last day.
  let day = days - 1;
  let silenced: (chainId: number) => Address | null;
  let feeds: DemoFeeds;
  try {
    const silent = silentPool(demo.pools, days, log);
    silenced = (chainId) =>
      chainId === silent.pool.chainId && day > silent.lastReportedDay ? silent.pool.address : null;
    const listed = (pool: FeedServerPool) => pool.address.toLowerCase() !== silenced(pool.chainId)?.toLowerCase();
    const campaigns = demoCampaigns({
      pools: demo.pools,
      tokens: demo.tokens,
      present: dayEnds[dayEnds.length - 1].time,
    });
    log(`demo: ${campaigns.length} Merkl campaigns: ${describeCampaigns(campaigns, demo.pools).join("; ")}`);
    feeds = await startDemoFeeds({ pools: demo.pools, store, campaigns, listed });
  } catch (error) {
    await demo.stop();
    throw error;
  }
  log(`demo: feeds at ${Object.values(feeds.server.urls).join(", ")}`);

  return {
    pools: demoPoolConfigs(demo.pools),
    chains: demo.chains.map(({ chainId, rpcUrl }) => ({
      chainId,
      client: demoClient(chainId, rpcUrl, () => silenced(chainId)),
    })),
    feeds: { ...feeds.server.urls, ...definedOnly(config.feeds) },
    registry: config.registry ?? demo.registry,
    localChains: demo.chains,
    ...(dayEnds.length > 0 ? { keepSince: dayEnds[0].time } : {}),
    issuesAlongHistory: true,
    replayHistory: (ingest) =>
      replayDays({
        chains: demo.chains,
        days: dayEnds,
        ingest,
        silenced,
        setClock: (moment) => {
          day = moment?.index ?? days - 1;
          feeds.setClock(moment?.time ?? null);
        },
      }),
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

/**
 * The pool whose source stops reporting ({@link DEMO_STALE_POOL}) and the last day it is reported: `silentDays`
 * before the last day, or day 0 when the history is shorter (the replay reads day 0 when there are 2 days or more).
 */
export function silentPool(
  pools: readonly DemoPool[],
  days: number,
  log: (line: string) => void,
): { pool: DemoPool; lastReportedDay: number } {
  const pool = findDemoPool(pools, DEMO_STALE_POOL);
  const lastReportedDay = Math.max(0, days - 1 - DEMO_STALE_POOL.silentDays);
  log(
    `demo: ${pool.symbol} (${pool.protocol}, chain ${pool.chainId}, ${pool.address}) stops reporting after day ` +
      `${lastReportedDay + 1}/${days}: from then on the chain's endpoint refuses its reads and the feeds stop listing ` +
      `it, so its stored values age and it turns stale (held out of totals)`,
  );
  return { pool, lastReportedDay };
}

/** A live client of one demo chain, through {@link silencing} (its retries and timeout as a configured chain's). */
function demoClient(chainId: number, rpcUrl: string, silenced: () => Address | null): PublicClient {
  const live = createChainClients({ [chainId]: rpcUrl })[0].client;
  return createPublicClient({
    chain: live.chain,
    transport: custom({ request: silencing(live.request as RpcRequest, silenced) }, { retryCount: 0 }),
  });
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
  campaigns,
  listed,
}: {
  pools: readonly FeedServerPool[];
  store: Pick<Store, "db">;
  campaigns: readonly FeedServerCampaign[];
  listed: (pool: FeedServerPool) => boolean;
}): Promise<DemoFeeds> {
  const depths = new Map<string, number>();
  let clock: number | null = null;
  const server = await startFeedServer({
    pools,
    campaigns,
    listed,
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
      for (const pool of await listPoolDepths(store.db)) {
        if (pool.depthUsd !== null) depths.set(`${pool.chainId}:${pool.address}`, pool.depthUsd);
      }
    },
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
