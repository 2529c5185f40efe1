import { keccak256, stringToHex } from "viem";
import type { DemoToken } from "../chain/uniswapV2";
import { DemoChainError } from "../errors/chain";
import { findDemoPool, usdToUnits, type DemoPool } from "./demoChainState";
import { DEMO_CAMPAIGNS, DEMO_CHAINS, type DemoCampaignSpec } from "./demoConfig";
import type { FeedServerCampaign } from "./feedBodies";

const DAY = 86_400;

export type DemoCampaignsParameters = {
  /** The demo's pools (`startDemoChains`). */
  pools: readonly DemoPool[];
  /** The demo's tokens per chain, by symbol (`startDemoChains`): the reward tokens. */
  tokens: Record<number, Record<string, DemoToken>>;
  /** The present (the end of the history), Unix seconds: campaign days count from its UTC day. */
  present: number;
  /** Default {@link DEMO_CAMPAIGNS}. */
  specs?: readonly DemoCampaignSpec[];
};

/**
 * The demo's Merkl campaigns with dates and amounts: each spec's days become UTC midnights counted from the present's
 * UTC day, its pool the demo pool it names, its reward token the chain's demo token of that symbol, and its amount
 * the daily USD rewards over its whole length at the token's starting price. Deterministic: the same present gives
 * the same campaigns (ids derived from chain, venue, pool and start day).
 * Throws `DemoChainError` for a spec naming no demo pool or token, or ending before it starts.
 *
 * @param parameters - {@link DemoCampaignsParameters}
 * @returns the campaigns to give `startFeedServer`.
 */
export function demoCampaigns(parameters: DemoCampaignsParameters): FeedServerCampaign[] {
  const { pools, tokens, present, specs = DEMO_CAMPAIGNS } = parameters;
  const today = Math.floor(present / DAY) * DAY;
  return specs.map((spec) => {
    const pool = findDemoPool(pools, spec);
    const token = tokens[spec.chainId]?.[spec.rewardToken];
    const price = DEMO_CHAINS.find((c) => c.chainId === spec.chainId)?.tokens.find(
      (t) => t.symbol === spec.rewardToken,
    )?.priceUsd;
    if (!token || price === undefined) {
      throw new DemoChainError(`campaign on ${spec.name}: no demo token ${spec.rewardToken} on chain ${spec.chainId}`);
    }
    if (!(Number.isSafeInteger(spec.startDay) && Number.isSafeInteger(spec.endDay) && spec.endDay > spec.startDay)) {
      throw new DemoChainError(`campaign on ${spec.name}: days must be whole, ending after the start`);
    }
    return {
      chainId: spec.chainId,
      pool: pool.address,
      campaignId: keccak256(
        stringToHex(`demo campaign:${spec.chainId}:${spec.protocol}:${spec.name}:${spec.startDay}`),
      ),
      startTimestamp: today + spec.startDay * DAY,
      endTimestamp: today + spec.endDay * DAY,
      rewardToken: { address: token.address, symbol: token.symbol, decimals: token.decimals },
      amount: usdToUnits(spec.dailyRewardsUsd * (spec.endDay - spec.startDay), price, token.decimals),
      dailyRewardsUsd: spec.dailyRewardsUsd,
    };
  });
}

/** One line per campaign for the startup log, e.g. `1 WETH-USDC (uniswap-v2) 2026-09-24 → 2026-12-14`. */
export function describeCampaigns(campaigns: readonly FeedServerCampaign[], pools: readonly DemoPool[]): string[] {
  const date = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);
  return campaigns.map((c) => {
    const pool = pools.find((p) => p.chainId === c.chainId && p.address === c.pool);
    return `${c.chainId} ${pool?.symbol} (${pool?.protocol}) ${date(c.startTimestamp)} → ${date(c.endTimestamp)}`;
  });
}
