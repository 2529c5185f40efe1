import { createLocalSigner } from "../src/attest/signer";
import type { Address, Hex } from "viem";
import type { DefillamaChartPoint, DefillamaPool } from "../src/ingest/feeds/defillamaYields";
import type { MerklOpportunity } from "../src/ingest/feeds/merkl";
import { poolKey } from "../src/ingest/poolKey";
import type { OnchainReading } from "../src/ingest/rows/poolValues";
import type { PoolSwapRead, SwapRead } from "../src/ingest/steps/swapLogs";
import { issueStep } from "../src/ingest/steps/issue";
import { writePass, type PassData } from "../src/ingest/writePass";
import type { PoolConfig } from "../src/model/poolConfig";
import type { Store } from "../src/storage/openStore";
import { utcDay } from "../src/storage/poolDaily";
import type { DexVolumeRecord } from "../src/storage/dexVolumes";
import type { TokenPriceRecord } from "../src/storage/tokenPrices";

/** A development key (Hardhat's second account): signs the synthetic passes' attestations. */
export const SYNTHETIC_KEY: Hex = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
/** 2026-10-01 12:00 UTC: pass k runs at `SYNTHETIC_T0 + k × interval`. */
export const SYNTHETIC_T0 = Date.UTC(2026, 9, 1, 12) / 1000;
const DAY = 86_400;
const CHAINS = [1, 8453] as const;
const BLOCKS_PER_PASS = 75n;

/** A 40-hex-digit address from a number and a tag (distinct per pool and per role). */
function address(tag: number, n: number): Address {
  return `0x${tag.toString(16).padStart(2, "0")}${n.toString(16).padStart(38, "0")}` as Address;
}

/**
 * `n` tracked pools over two chains: three AMM pairs for every Aave reserve, each with a DefiLlama id and a Merkl id.
 */
export function syntheticPools(n: number): PoolConfig[] {
  return Array.from({ length: n }, (_, i): PoolConfig => {
    const chainId = CHAINS[i % CHAINS.length];
    const lending = i % 4 === 3;
    return {
      chainId,
      address: address(0xa0, i),
      kind: lending ? "lending" : "amm",
      symbol: lending ? `aUSDC-${i}` : `USDC-WETH-${i}`,
      protocol: lending ? "aave-v3" : "uniswap-v2",
      ...(lending ? { lendingPool: address(0xb0, chainId), underlying: address(0xc0, 0) } : {}),
      defillamaId: `llama-${i}`,
      merklId: `merkl-${i}`,
    };
  });
}

/** Parameters of {@link syntheticPassData}. */
export interface SyntheticPassParameters {
  pools: readonly PoolConfig[];
  /** Which pass of a run of passes (0 = the first: no stored cursor, chart history backfilled). */
  index: number;
  /** Seconds between passes. Default 900 (96 passes a day). */
  intervalS?: number;
}

/** The time of pass `index`. */
export function syntheticPassTime(index: number, intervalS = 900): number {
  return SYNTHETIC_T0 + index * intervalS;
}

/**
 * What the read phase of pass `index` would gather if every source answered: every pool read on chain (a depth that
 * moves a little with the pass), two swaps per AMM pair since the previous pass (cursors continue from it), the
 * yields feed, 30 days of chart history on the first pass only (as `readChartStep` asks only for short histories),
 * one Merkl campaign per pool (started, ending in 20 days), 30 days of dex volume per chain and a price per chain.
 */
export function syntheticPassData(parameters: SyntheticPassParameters): PassData {
  const { pools, index } = parameters;
  const intervalS = parameters.intervalS ?? 900;
  const now = syntheticPassTime(index, intervalS);
  const block = 1_000n + BigInt(index) * BLOCKS_PER_PASS;
  const onchain = new Map<string, OnchainReading>();
  const swapsByChain = new Map<number, PoolSwapRead[]>();
  const llamaPools = new Map<string, DefillamaPool>();
  const charts = new Map<string, DefillamaChartPoint[]>();
  const opportunities: MerklOpportunity[] = [];
  pools.forEach((pool, i) => {
    const key = poolKey(pool.chainId, pool.address);
    const depthUsd = 1_000_000 + i * 1000 + (index % 7) * 500;
    const state: Record<string, string | number> =
      pool.kind === "amm"
        ? {
            reserve0: "1000000000000",
            reserve1: "500000000000000000000",
            decimals0: 6,
            decimals1: 18,
            price0Usd: 1,
            price1Usd: 1000,
          }
        : { supplied: "1000000000000", borrowed: "0", decimals: 6, priceUsd: 1 };
    onchain.set(key, {
      observation: {
        chainId: pool.chainId,
        address: pool.address,
        kind: pool.kind,
        depthUsd,
        exitableUsd: pool.kind === "lending" ? depthUsd : null,
        supplyRatePercent: pool.kind === "lending" ? 3.5 : null,
        state,
      },
      block: block.toString(),
      observedAt: now,
    });
    if (pool.kind === "amm") {
      const read: PoolSwapRead = {
        address: pool.address,
        from: { address: pool.address, nextBlock: block - BLOCKS_PER_PASS + 1n, lastBlockTime: now - intervalS },
        fromStored: index > 0,
        readTo: block,
        readToTime: now,
        reachedPinned: true,
        swaps: [0, 1].map((s) => ({
          block: block - BigInt(s),
          logIndex: s,
          hour: Math.floor((now - s * 60) / 3600) * 3600,
          amount0In: 1_000_000_000n,
          amount1In: 0n,
          amount0Out: 0n,
          amount1Out: 1_000_000_000_000_000_000n,
        })),
      };
      swapsByChain.set(pool.chainId, [...(swapsByChain.get(pool.chainId) ?? []), read]);
    }
    llamaPools.set(pool.defillamaId!, {
      pool: pool.defillamaId!,
      chain: pool.chainId === 1 ? "Ethereum" : "Base",
      project: pool.protocol,
      symbol: pool.symbol,
      tvlUsd: depthUsd,
      apy: 4.2,
    });
    if (index === 0) {
      charts.set(
        key,
        Array.from({ length: 30 }, (_, d) => ({
          timestamp: new Date((now - (30 - d) * DAY) * 1000).toISOString(),
          tvlUsd: 900_000 + ((i + d) % 5) * 10_000,
        })),
      );
    }
    opportunities.push({
      id: `opp-${i}`,
      chainId: pool.chainId,
      identifier: pool.merklId!,
      name: `Incentive ${i}`,
      type: "UNISWAP_V2",
      status: "LIVE",
      apr: 12,
      tvl: depthUsd,
      campaigns: [
        {
          campaignId: `0x${i.toString(16).padStart(64, "0")}`,
          startTimestamp: SYNTHETIC_T0 - DAY,
          endTimestamp: SYNTHETIC_T0 + 20 * DAY,
          amount: "1000000",
          rewardToken: { address: address(0xd0, 0), symbol: "RWD", decimals: 18 },
        },
      ],
    });
  });
  const swaps: SwapRead[] = [...swapsByChain].map(([chainId, reads]) => ({
    chainId,
    pinned: { block, time: now },
    pools: reads,
    rpcRequests: 0,
  }));
  const dexVolumes: DexVolumeRecord[] = CHAINS.flatMap((chainId) =>
    Array.from({ length: 30 }, (_, d) => ({
      chain: chainId === 1 ? "Ethereum" : "Base",
      protocol: "uniswap-v2",
      day: utcDay(now - (30 - d) * DAY),
      volumeUsd: 1_000_000 + d,
      observedAt: now,
    })),
  );
  const tokenPrices: TokenPriceRecord[] = CHAINS.map((chainId) => ({
    chainId,
    token: address(0xc0, 0),
    priceUsd: 1,
    observedAt: now,
    source: "defillama-coins",
  }));
  return { onchain, llamaPools, charts, dexVolumes, opportunities, swaps, registry: null, tokenPrices };
}

/**
 * The store work of pass `index` over synthetic data: its write phase (`writePass`) and its issuance (`issueStep`,
 * signing with {@link SYNTHETIC_KEY}), as `runIngestionPass` runs them after its read phase.
 */
export async function runSyntheticPass(
  store: Store,
  parameters: SyntheticPassParameters & { issue?: boolean },
): Promise<void> {
  const { pools, index } = parameters;
  const now = syntheticPassTime(index, parameters.intervalS);
  const data = syntheticPassData(parameters);
  await writePass(store.db, { pools, data, feedsObservedAt: now, freshnessWindowS: 3600 });
  const issue = parameters.issue === false ? false : { signer: createLocalSigner(SYNTHETIC_KEY), lifetimeS: DAY };
  const issued = await issueStep({ db: store.db, pools, issue, now: () => now, freshnessWindowS: 3600, log: () => {} });
  if (issued.report && !issued.report.ok) throw new Error(`issue failed: ${issued.report.error}`);
}
