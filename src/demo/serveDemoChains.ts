import type { Address, Hex } from "viem";
import { createChainClients } from "../chain/chainClients";
import { StartupAbortedError } from "../errors/startup";
import { errorLine } from "@attestation-registry/sdk/errors";
import { poolKey } from "../ingest/poolKey";
import { readChainStep } from "../ingest/steps/chains";
import type { PoolConfig } from "../model/poolConfig";
import { advanceChainClocks } from "./advanceChainClocks";
import { demoCampaigns, describeCampaigns } from "./demoCampaigns";
import { silentPool } from "./demoSource";
import type { FeedHistoryPoint } from "./feedBodies";
import { demoPoolConfigs, startFeedServer, type FeedServer } from "./feedServer";
import { pinnedClient } from "./pinnedClient";
import { serveSilencedRpc, type SilencedRpcServer } from "./silencedRpcServer";
import { startDemoChains, type DemoChains, type DemoDay } from "./startDemoChains";

/** Seconds between the empty blocks mined at the wall clock while serving (Ethereum's slot time). */
export const DEMO_BLOCK_TIME_S = 12;

export type ServeDemoChainsParameters = {
  /** Days of simulated history (`DEMO_DAYS`); the last one ends at the present. */
  days: number;
  /** `DEMO_SEED`. */
  seed: number;
  /** The attester's key: its address is funded and registered in the demo's AttestationRegistry. */
  attesterPrivateKey: Hex;
  log: (line: string) => void;
  /** Aborts the simulation at its next day with {@link StartupAbortedError} (everything started is stopped). */
  signal?: AbortSignal;
  /** Seconds between the blocks mined while serving. Default {@link DEMO_BLOCK_TIME_S}. */
  blockTimeS?: number;
};

/** The demo's chains and feeds, served for processes outside the demo. */
export interface ServedDemoChains {
  /** Per chain, the endpoint a configured process reads (`RPC_URL_<chainId>`): through the demo's silencing. */
  chains: { chainId: number; rpcUrl: string }[];
  /** The pools file's entries (`POOLS_FILE`), with the feed server's identifiers. */
  pools: PoolConfig[];
  /** The loopback feeds' base URLs. */
  feeds: FeedServer["urls"];
  registry: { chainId: number; address: Address };
  /** Stops the clock, the feed server, the endpoints and the chains. */
  stop(): Promise<void>;
}

/**
 * `npm run demo:chains`: the demo's chains and feed server without the service, for configured processes to read
 * (docs/operations.md#try-it-on-one-machine-npm-run-demochains). The same simulated days as `npm start`'s demo ({@link
 * startDemoChains}: chains, deployments, the registry with the attester registered, `days` days of activity, the same
 * Merkl campaigns and silent pool), served so that a process configured with `RPC_URL_<chainId>`, `POOLS_FILE` and the
 * feed URLs sees what the demo's own service sees:
 * - each chain through an endpoint that refuses the silent pool's reads ({@link serveSilencedRpc}); the feeds stop
 *   listing it;
 * - the feeds' `/chart` of each pool carries its depth at the end of every simulated day but the last (measured on
 *   chain with the service's own reader while the history is played), so a configured process's first pass backfills
 *   the daily history as it would from DefiLlama, and can issue at once; the present is read live;
 * - the feeds' TVL follows the depth measured at the latest block;
 * - one empty block is mined at the wall clock every `blockTimeS` on each chain, so "latest" stays fresh for as long as
 *   this runs (the chains move only when something sends a transaction; the demo's service does this before each
 *   pass instead).
 *
 * @param {@link ServeDemoChainsParameters}
 * @returns {@link ServedDemoChains}; call `stop()` when done.
 * @throws {@link StartupAbortedError} when `signal` aborts the history (nothing is left running).
 */
export async function serveDemoChains(parameters: ServeDemoChainsParameters): Promise<ServedDemoChains> {
  const { days, seed, attesterPrivateKey, log, signal } = parameters;
  const history = new Map<string, DayDepth[]>();
  const dayEnds: number[] = [];
  const demo = await startDemoChains({
    days,
    seed,
    attesterPrivateKey,
    log,
    onDay: async (day) => {
      if (signal?.aborted) throw new StartupAbortedError();
      dayEnds.push(day.time);
      // The last day is the present: processes read it live.
      if (day.index < days - 1) await recordDay(day, history);
    },
  });
  const stops: (() => Promise<void>)[] = [() => demo.stop()];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((error: Error) => log(`demo: stop: ${errorLine(error)}`));
  };
  try {
    // The silent pool: its chart ends on its last reported day; in the present (after that day, unless the history is
    // too short for it to fall silent) its endpoint refuses its reads and the feeds stop listing it.
    const { pool: silentDemoPool, lastReportedDay } = silentPool(demo.pools, days, log);
    const silentKey = poolKey(silentDemoPool.chainId, silentDemoPool.address);
    history.set(
      silentKey,
      (history.get(silentKey) ?? []).filter((point) => point.index <= lastReportedDay),
    );
    const silent = days - 1 > lastReportedDay ? silentKey : null;
    const silencedOn = (chainId: number) =>
      silent !== null && chainId === silentDemoPool.chainId ? silentDemoPool.address : null;
    const endpoints: SilencedRpcServer[] = [];
    for (const chain of demo.chains) {
      const endpoint = await serveSilencedRpc({ upstream: chain.rpcUrl, silenced: () => silencedOn(chain.chainId) });
      stops.push(() => endpoint.close());
      endpoints.push(endpoint);
    }
    const pools = demoPoolConfigs(demo.pools);
    const depths = new Map<string, number>();
    const campaigns = demoCampaigns({ pools: demo.pools, tokens: demo.tokens, present: dayEnds[dayEnds.length - 1] });
    log(`demo: ${campaigns.length} Merkl campaigns: ${describeCampaigns(campaigns, demo.pools).join("; ")}`);
    const feeds = await startFeedServer({
      pools: demo.pools,
      campaigns,
      listed: (pool) => poolKey(pool.chainId, pool.address) !== silent,
      snapshot: (pool) => {
        const depth = depths.get(poolKey(pool.chainId, pool.address));
        return depth === undefined ? undefined : { tvlUsd: depth };
      },
      history: (pool) => history.get(poolKey(pool.chainId, pool.address)) ?? [],
    });
    stops.push(() => feeds.close());

    const tick = async () => {
      await advanceChainClocks({ rpcUrls: demo.chains.map((chain) => chain.rpcUrl) });
      await measureDepths({ demo, pools, silent, depths, log });
    };
    await tick();
    const clock = startClock({ intervalMs: (parameters.blockTimeS ?? DEMO_BLOCK_TIME_S) * 1000, tick, log });
    stops.push(() => clock.stop());

    return {
      chains: demo.chains.map((chain, i) => ({ chainId: chain.chainId, rpcUrl: endpoints[i].url })),
      pools,
      feeds: feeds.urls,
      registry: demo.registry,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** A pool's depth at the end of one simulated day: the feeds' chart point, and the day's index. */
type DayDepth = FeedHistoryPoint & { index: number };

/** Each pool's depth at the end of one simulated day, read at the day's last block with the service's own reader. */
async function recordDay(day: DemoDay, history: Map<string, DayDepth[]>): Promise<void> {
  const pools = demoPoolConfigs(day.pools);
  await Promise.all(
    day.chains.map(async (chain) => {
      const blockNumber = day.blocks.find((block) => block.chainId === chain.chainId)?.blockNumber;
      const { client } = await pinnedClient({ chainId: chain.chainId, rpcUrl: chain.rpcUrl, blockNumber });
      const read = await readChainStep({
        chainId: chain.chainId,
        pools: pools.filter((pool) => pool.chainId === chain.chainId),
        client,
        log: () => undefined,
      });
      for (const { observation, observedAt } of read.data.readings) {
        if (observation.depthUsd === null) continue;
        const key = poolKey(chain.chainId, observation.address);
        const point = { index: day.index, time: observedAt, tvlUsd: observation.depthUsd };
        history.set(key, [...(history.get(key) ?? []), point]);
      }
    }),
  );
}

/** Reads every pool's depth at the latest block into `depths` (the feeds' TVL); the silent pool is not read. */
async function measureDepths(parameters: {
  demo: Pick<DemoChains, "chains">;
  pools: readonly PoolConfig[];
  /** The silent pool's {@link poolKey}, or null. */
  silent: string | null;
  depths: Map<string, number>;
  log: (line: string) => void;
}): Promise<void> {
  const { demo, pools, silent, depths, log } = parameters;
  const clients = createChainClients(Object.fromEntries(demo.chains.map((chain) => [chain.chainId, chain.rpcUrl])));
  await Promise.all(
    clients.map(async ({ chainId, client }) => {
      const read = await readChainStep({
        chainId,
        pools: pools.filter((pool) => pool.chainId === chainId && poolKey(chainId, pool.address) !== silent),
        client,
        log,
      });
      for (const { observation } of read.data.readings) {
        if (observation.depthUsd !== null) depths.set(poolKey(chainId, observation.address), observation.depthUsd);
      }
    }),
  );
}

/** Runs `tick` every `intervalMs`, one at a time; a failing tick is logged and the next one runs on schedule. */
function startClock(parameters: { intervalMs: number; tick: () => Promise<void>; log: (line: string) => void }): {
  stop(): Promise<void>;
} {
  const { intervalMs, tick, log } = parameters;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const schedule = () => {
    timer = setTimeout(() => {
      running = tick()
        .catch((error) => log(`demo: advancing the chain clocks failed: ${errorLine(error)}`))
        .finally(() => {
          if (!stopped) schedule();
        });
    }, intervalMs);
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
