import { isHex, type Address, type Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { startLocalChain, type LocalChain } from "../chain/startLocalChain";
import type { DemoToken } from "../chain/uniswapV2";
import { DemoChainError } from "../errors/chain";
import { listDemoPools, type ChainState, type DemoPool } from "./demoChainState";
import { DEMO_CHAINS, demoPoolSpecs, type DemoChainSpec } from "./demoConfig";
import { planDemoPool, type DemoPoolPlan } from "./planDemoPool";
import { createPrng, mixSeed } from "./prng";
import { deployDemoRegistry, setupDemoChain } from "./setupDemoChain";
import { simulateDay } from "./simulateDay";

export type { DemoPool } from "./demoChainState";

const DAY_S = 86_400;

export interface DemoChains {
  chains: { chainId: number; rpcUrl: string }[];
  pools: DemoPool[];
  registry: { chainId: number; address: Address };
  /** Per chain: the USD anchor (USDC, 6 decimals) and the other tokens, by symbol. */
  tokens: Record<number, Record<string, DemoToken>>;
  /** Transactions sent and wall-clock milliseconds, setup and history together. */
  stats: { transactions: number; elapsedMs: number; setupMs: number };
  /** Stops every chain (nothing is left running). */
  stop(): Promise<void>;
}

/** What `onDay` receives after each simulated day. */
export interface DemoDay {
  /** 0 … days − 1. */
  index: number;
  /** Chain time at the end of the day (the latest block's timestamp, the largest over the chains), Unix seconds. */
  time: number;
  /** Per chain: the last block of the day, so a pass can pin its reads to it. */
  blocks: { chainId: number; blockNumber: bigint; time: number }[];
  /** The chains and pools, already usable during the history (the same as the returned `DemoChains`). */
  chains: { chainId: number; rpcUrl: string }[];
  pools: DemoPool[];
}

export type StartDemoChainsParameters = {
  /** Days of simulated history; the last one ends at the present. At least 1. */
  days: number;
  /** PRNG seed: the same seed gives the same addresses and activity. Default 1. */
  seed?: number;
  /** The attester's key: it is funded and registered in the AttestationRegistry on chain 1. */
  attesterPrivateKey: Hex;
  log: (line: string) => void;
  /** Awaited after each simulated day on all chains (the caller runs an ingestion pass here). */
  onDay?: (day: DemoDay) => Promise<void>;
  /** Wall clock in Unix seconds (tests may pin it). Default `Date.now()`. */
  now?: () => number;
};

export type StartDemoChainsReturnType = DemoChains;
export type StartDemoChainsErrorType = DemoChainError;

/**
 * Starts the three demo chains (1, 42161, 8453) with their genesis `days` days ago, deploys real Uniswap V2
 * pairs (and, on 1 and 42161, a second V2 venue labelled `sushiswap-v2`) and an Aave v3 market on each from npm
 * bytecode, the AttestationRegistry on chain 1 with the attester registered, then replays `days` days of seeded
 * activity (swaps through each day on every pair, liquidity moves, supplies, borrows, repays, withdrawals), moving
 * chain time a day at a time and awaiting `onDay` after each. The last day ends at the present, so chain time
 * and wall-clock time agree while serving.
 *
 * @param parameters - {@link StartDemoChainsParameters}
 * @returns {@link DemoChains}; call `stop()` when done.
 *
 * @example
 * import { startDemoChains } from "./src/demo/startDemoChains";
 * const demo = await startDemoChains({ days: 10, attesterPrivateKey: "0x…", log: console.log });
 * await demo.stop();
 */
export async function startDemoChains(parameters: StartDemoChainsParameters): Promise<StartDemoChainsReturnType> {
  const { days, seed = 1, attesterPrivateKey, log, onDay } = parameters;
  const now = parameters.now ?? (() => Math.floor(Date.now() / 1000));
  checkParameters(parameters);
  const attester = privateKeyToAddress(attesterPrivateKey);

  const started = Date.now();
  const startNow = now();
  // Day i happens at dayTime(i); setup happens an hour before day 0.
  const dayTime = (index: number) => startNow - (days - 1 - index) * DAY_S;
  const genesisTime = dayTime(0) - 3600;

  const chains: LocalChain[] = [];
  const stopAll = async () => {
    await Promise.all(chains.map((c) => c.stop()));
  };
  try {
    for (const spec of DEMO_CHAINS) {
      chains.push(await startLocalChain({ chainId: spec.chainId, genesisTime, log }));
    }
    const states = await Promise.all(
      DEMO_CHAINS.map((spec, i) =>
        setupDemoChain({
          spec,
          chain: chains[i],
          rng: createPrng(mixSeed(seed, spec.chainId)),
          plans: planChain(spec, days, seed),
          log,
        }),
      ),
    );
    const registry = await deployDemoRegistry(states[0].driver, attester, log);
    const setupMs = Date.now() - started;
    const chainList = chains.map((c) => ({ chainId: c.chainId, rpcUrl: c.rpcUrl }));
    const pools = states.flatMap(listDemoPools);
    log(`demo: setup done in ${setupMs} ms; simulating ${days} day(s)`);

    await simulateHistory({
      states,
      days,
      dayTime,
      now,
      log,
      onDay: onDay && ((day) => onDay({ ...day, chains: chainList, pools })),
    });

    const transactions = states.reduce((n, s) => n + s.driver.transactions, 0);
    const elapsedMs = Date.now() - started;
    log(`demo: ${days} day(s) on ${states.length} chains, ${transactions} transactions in ${elapsedMs} ms`);

    return {
      chains: chainList,
      pools,
      registry: { chainId: states[0].spec.chainId, address: registry },
      tokens: Object.fromEntries(states.map((s) => [s.spec.chainId, s.tokens])),
      stats: { transactions, elapsedMs, setupMs },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    if (error instanceof DemoChainError) throw error;
    throw new DemoChainError("starting the demo chains failed", { cause: error as Error });
  }
}

/** Throws `DemoChainError` for a bad `days`, `seed` or attester key. */
function checkParameters({ days, seed = 1, attesterPrivateKey }: StartDemoChainsParameters): void {
  if (!Number.isSafeInteger(days) || days < 1) {
    throw new DemoChainError(`days must be a positive integer, got ${String(days)}`);
  }
  if (!Number.isSafeInteger(seed)) throw new DemoChainError(`seed must be an integer, got ${String(seed)}`);
  if (!isHex(attesterPrivateKey) || attesterPrivateKey.length !== 66) {
    throw new DemoChainError("attesterPrivateKey must be a 32-byte 0x-prefixed hex string");
  }
}

/**
 * The plans of one chain's pools, in `demoPoolSpecs` order. Each pool's history is planned from its own stream, so it
 * does not depend on the other pools' activity.
 */
function planChain(spec: DemoChainSpec, days: number, seed: number): DemoPoolPlan[] {
  return demoPoolSpecs(spec).map((pool, p) =>
    planDemoPool({ spec: pool.spec, days, rng: createPrng(mixSeed(seed, spec.chainId, 1 + p)) }),
  );
}

/**
 * Plays the history on every chain, a day at a time: moves chain time to the day, runs {@link simulateDay} on each
 * chain, then awaits `onDay` with the day's last blocks. The last day ends at the present.
 */
async function simulateHistory({
  states,
  days,
  dayTime,
  now,
  log,
  onDay,
}: {
  states: ChainState[];
  days: number;
  dayTime: (index: number) => number;
  now: () => number;
  log: (line: string) => void;
  onDay?: (day: Pick<DemoDay, "index" | "time" | "blocks">) => Promise<void>;
}): Promise<void> {
  for (let index = 0; index < days; index++) {
    const last = index === days - 1;
    // The last day is pinned to the wall clock at that moment (minus a minute of headroom for its blocks).
    const target = last ? now() - 60 : dayTime(index);
    await Promise.all(
      states.map(async (state) => {
        // The day's swaps come between the previous day's end and this one's; the pools are steered at its end.
        const latest = await state.driver.latestBlock();
        await simulateDay(state, { index, from: latest.timestamp, to: Math.max(target, latest.timestamp + 1) });
        if (last) {
          // Bring chain time back in step with the wall clock for serving.
          const after = await state.driver.latestBlock();
          await state.driver.mineAt(Math.max(now(), after.timestamp + 1));
        }
      }),
    );
    const blocks = await Promise.all(
      states.map(async (s) => {
        const latest = await s.driver.latestBlock();
        return { chainId: s.spec.chainId, blockNumber: latest.number, time: latest.timestamp };
      }),
    );
    const time = Math.max(...blocks.map((b) => b.time));
    if ((index + 1) % 10 === 0 || last) {
      log(`demo: day ${index + 1}/${days} simulated (chain time ${new Date(time * 1000).toISOString()})`);
    }
    if (onDay) await onDay({ index, time, blocks });
  }
}
