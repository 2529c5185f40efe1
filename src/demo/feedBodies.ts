import { keccak256, stringToHex, type Address, type Hex } from "viem";
import { DEFILLAMA_CHAINS } from "../ingest/feeds/defillamaDexVolumes";

/**
 * What the demo's feed server (`./feedServer.ts`) answers: the pools, campaigns and history it describes, the ids it
 * gives them, and each feed's body in DefiLlama's and Merkl's documented shapes, built from a {@link FeedContext}.
 * The server only routes, delays, counts and misbehaves on request.
 */

/** A pool the feed server describes (the demo's `DemoPool` fits). */
export interface FeedServerPool {
  chainId: number;
  address: Address;
  kind: "amm" | "lending";
  protocol: string;
  symbol: string;
  /** AMM: token0 and token1. Lending: the underlying asset (first entry). */
  underlying?: readonly Address[];
  lendingPool?: Address;
}

/** Live values to serve for a pool instead of the derived ones (e.g. the on-chain depth the demo just measured). */
export interface FeedSnapshot {
  tvlUsd?: number;
  apyPercent?: number;
  volume24hUsd?: number;
}

/** A Merkl campaign for the feed server to serve (the demo's schedule, `demoCampaigns`). */
export interface FeedServerCampaign {
  chainId: number;
  /** The pool it rewards: the opportunity's `identifier`. */
  pool: Address;
  campaignId: Hex;
  /** The chain whose distributor pays it (Merkl's `distributionChainId`). Default: the pool's chain. */
  distributionChainId?: number;
  startTimestamp: number;
  endTimestamp: number;
  rewardToken: { address: Address; symbol: string; decimals: number };
  /** Total rewards over the campaign, in base units of the reward token. */
  amount: bigint;
  /** Rewards per day in USD: the opportunity's `dailyRewards`, and its APR, while the campaign runs. */
  dailyRewardsUsd: number;
}

/** The feeds the server answers. */
export type FeedName = "pools" | "chart" | "dexs" | "merkl";

/** One past point of a pool's `/chart`: Unix seconds and TVL in USD. */
export interface FeedHistoryPoint {
  time: number;
  tvlUsd: number;
}

/** A number in [0, 1) derived from a string, stable across runs. */
function unit(seed: string): number {
  return Number.parseInt(keccak256(stringToHex(seed)).slice(2, 14), 16) / 2 ** 48;
}

/** The DefiLlama-style pool uuid the feed server gives a pool: derived from chainId and address, stable across runs. */
export function demoDefillamaId(chainId: number, address: string): string {
  const h = keccak256(stringToHex(`defillama:${chainId}:${address.toLowerCase()}`)).slice(2);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((Number.parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The Merkl opportunity id the feed server gives a pool (a decimal string like Merkl's). */
export function demoMerklId(chainId: number, address: string): string {
  return BigInt(keccak256(stringToHex(`merkl:${chainId}:${address.toLowerCase()}`)).slice(0, 18)).toString();
}

const PROTOCOL_NAMES: Record<string, string> = {
  "uniswap-v2": "Uniswap V2",
  "sushiswap-v2": "SushiSwap V2",
  "aave-v3": "Aave V3",
};
const DAY = 86_400;

/** What the feed bodies are built from. */
export interface FeedContext {
  pools: readonly FeedServerPool[];
  now: () => number;
  snapshot?: (pool: FeedServerPool) => FeedSnapshot | undefined;
  campaigns?: readonly FeedServerCampaign[];
  listed: (pool: FeedServerPool) => boolean;
  history?: (pool: FeedServerPool) => readonly FeedHistoryPoint[];
}

/** The feed a request path asks for, and its body; `body` is null for an unknown pool or chain. */
export function routeFeed(ctx: FeedContext, url: URL): { feed: FeedName | null; body: unknown } {
  const parts = url.pathname.split("/").filter(Boolean);
  if (parts[0] === "yields" && parts[1] === "pools" && parts.length === 2) {
    return { feed: "pools", body: yieldsPoolsBody(ctx) };
  }
  if (parts[0] === "yields" && parts[1] === "chart" && parts.length === 3) {
    return { feed: "chart", body: chartBody(ctx, decodeURIComponent(parts[2])) };
  }
  if (parts[0] === "api" && parts[1] === "overview" && parts[2] === "dexs" && parts.length === 4) {
    return { feed: "dexs", body: dexsBody(ctx, decodeURIComponent(parts[3])) };
  }
  if (parts[0] === "merkl" && parts[1] === "v4" && parts[2] === "opportunities" && parts.length === 3) {
    return { feed: "merkl", body: merklBody(ctx, url.searchParams) };
  }
  return { feed: null, body: null };
}

/**
 * A pool's TVL, APY and daily volume: from the snapshot when given, else derived from its identity. With a campaign
 * schedule, the reward APY is that of the pool's campaigns running now (0 without one).
 */
function poolValues(ctx: FeedContext, pool: FeedServerPool) {
  const id = `${pool.chainId}:${pool.address.toLowerCase()}`;
  const snap = ctx.snapshot?.(pool) ?? {};
  const tvlUsd = snap.tvlUsd ?? Math.round(200_000 + unit(`tvl:${id}`) * 4_800_000);
  const apyBase =
    snap.apyPercent ??
    Math.round((pool.kind === "lending" ? 1 + unit(`apy:${id}`) * 5 : 2 + unit(`apy:${id}`) * 20) * 1e4) / 1e4;
  const live = liveCampaigns(ctx, pool);
  const apyReward =
    ctx.campaigns === undefined
      ? Math.round(unit(`reward:${id}`) * 3 * 1e4) / 1e4
      : Math.round(((live.reduce((n, c) => n + c.dailyRewardsUsd, 0) * 365) / Math.max(tvlUsd, 1)) * 100 * 1e4) / 1e4;
  const volume =
    pool.kind === "amm" ? (snap.volume24hUsd ?? Math.round(tvlUsd * (0.05 + unit(`vol:${id}`) * 0.3))) : null;
  return { tvlUsd, apyBase, apyReward, volume, rewardTokens: [...new Set(live.map((c) => c.rewardToken.address))] };
}

/** The pool's campaigns of the schedule that have started by the clock's time (ended ones included). */
function startedCampaigns(ctx: FeedContext, pool: FeedServerPool): FeedServerCampaign[] {
  const now = ctx.now();
  return (ctx.campaigns ?? []).filter(
    (c) => c.chainId === pool.chainId && c.pool.toLowerCase() === pool.address.toLowerCase() && c.startTimestamp <= now,
  );
}

/** The pool's campaigns of the schedule running at the clock's time. */
function liveCampaigns(ctx: FeedContext, pool: FeedServerPool): FeedServerCampaign[] {
  const now = ctx.now();
  return startedCampaigns(ctx, pool).filter((c) => c.endTimestamp > now);
}

/** DefiLlama yields `/pools`. */
function yieldsPoolsBody(ctx: FeedContext) {
  return {
    status: "success",
    data: ctx.pools.filter(ctx.listed).map((pool) => {
      const v = poolValues(ctx, pool);
      return {
        chain: DEFILLAMA_CHAINS[pool.chainId]?.name ?? String(pool.chainId),
        project: pool.protocol,
        symbol: pool.symbol,
        tvlUsd: v.tvlUsd,
        apyBase: v.apyBase,
        apyReward: v.apyReward,
        apy: Math.round((v.apyBase + v.apyReward) * 1e4) / 1e4,
        rewardTokens: v.rewardTokens,
        pool: demoDefillamaId(pool.chainId, pool.address),
        stablecoin: /^(USDC|USDT|DAI)$/.test(pool.symbol),
        ilRisk: pool.kind === "amm" ? "yes" : "no",
        exposure: pool.kind === "amm" ? "multi" : "single",
        poolMeta: null,
        underlyingTokens: (pool.underlying ?? []).map(String),
        volumeUsd1d: v.volume,
      };
    }),
  };
}

/** DefiLlama yields `/chart/{pool}`: the pool's past points (`history`), then the present (null: unknown pool). */
function chartBody(ctx: FeedContext, uuid: string) {
  const pool = ctx.pools.find((p) => demoDefillamaId(p.chainId, p.address) === uuid);
  if (!pool) return null;
  const v = poolValues(ctx, pool);
  const point = (time: number, tvlUsd: number) => ({
    timestamp: new Date(time * 1000).toISOString(),
    tvlUsd,
    apy: v.apyBase + v.apyReward,
    apyBase: v.apyBase,
    apyReward: v.apyReward,
    il7d: null,
    apyBase7d: null,
  });
  // The demo's service reads its history from its own chains; a process outside it gets the past from `history`.
  const past = (ctx.history?.(pool) ?? []).filter((p) => p.time < ctx.now());
  return {
    status: "success",
    data: [...past.map((p) => point(p.time, p.tvlUsd)), point(ctx.now(), v.tvlUsd)],
  };
}

/** DefiLlama `/overview/dexs/{chain}`: 30 days of the chain's AMM volume by protocol (null: unknown chain). */
function dexsBody(ctx: FeedContext, slug: string) {
  const entry = Object.entries(DEFILLAMA_CHAINS).find(([, c]) => c.slug === slug);
  if (!entry) return null;
  const chainId = Number(entry[0]);
  const amm = ctx.pools.filter((p) => p.chainId === chainId && p.kind === "amm");
  const protocols = [...new Set(amm.map((p) => PROTOCOL_NAMES[p.protocol] ?? p.protocol))];
  const today = Math.floor(ctx.now() / DAY) * DAY;
  const chartRows: [number, number][] = [];
  const breakdown: [number, Record<string, number>][] = [];
  for (let d = 29; d >= 0; d--) {
    const ts = today - d * DAY;
    const byProtocol: Record<string, number> = {};
    for (const pool of amm) {
      const name = PROTOCOL_NAMES[pool.protocol] ?? pool.protocol;
      const v = poolValues(ctx, pool).volume ?? 0;
      byProtocol[name] = (byProtocol[name] ?? 0) + Math.round(v * (0.7 + unit(`day:${ts}:${pool.address}`) * 0.6));
    }
    breakdown.push([ts, byProtocol]);
    chartRows.push([ts, Object.values(byProtocol).reduce((a, b) => a + b, 0)]);
  }
  const last = breakdown[breakdown.length - 1][1];
  return {
    chain: entry[1].name,
    total24h: chartRows[chartRows.length - 1][1],
    totalDataChart: chartRows,
    totalDataChartBreakdown: breakdown,
    protocols: protocols.map((name) => ({
      name,
      displayName: name,
      module: name.toLowerCase().replace(/ /g, "-"),
      category: "Dexs",
      chains: [entry[1].name],
      total24h: last[name] ?? 0,
    })),
  };
}

/** Merkl's opportunity statuses (the `status` filter's legal values). */
const MERKL_STATUSES = ["LIVE", "SOON", "PAST"] as const;

/** A request the feed refuses with 400 and this message, as Merkl refuses a malformed query. */
export class BadFeedRequest {
  constructor(readonly message: string) {}
}

/**
 * Merkl v4 `/opportunities` as the real API answers it: `chainId` (comma list; default every chain), `status` (comma
 * list of LIVE, SOON, PAST; default every status; an opportunity's status comes from its campaigns' dates), `items`
 * (1–100, default 20) and `page` (0-indexed, default 0); a malformed one is refused (400). With a campaign schedule,
 * one opportunity per listed pool that has a campaign started by now (the demo's campaigns are created at their
 * start, so none is SOON); without one, one live opportunity with one campaign per pool.
 */
function merklBody(ctx: FeedContext, query: URLSearchParams): unknown[] | BadFeedRequest {
  const list = (name: string) => (query.get(name) ?? "").split(",").filter(Boolean);
  const chainIds = list("chainId").map(Number);
  const statuses = list("status").map((status) => status.toUpperCase());
  const items = Number(query.get("items") ?? 20);
  const page = Number(query.get("page") ?? 0);
  if (!chainIds.every((id) => Number.isSafeInteger(id) && id > 0)) {
    return new BadFeedRequest("chainId: a comma separated list of chain ids");
  }
  if (!statuses.every((status) => (MERKL_STATUSES as readonly string[]).includes(status))) {
    return new BadFeedRequest(`status: a comma separated list of ${MERKL_STATUSES.join(",")}`);
  }
  if (!(Number.isSafeInteger(items) && items >= 1 && items <= 100)) return new BadFeedRequest("items: 1-100");
  if (!(Number.isSafeInteger(page) && page >= 0)) return new BadFeedRequest("page: 0-indexed page number");
  const all = ctx.pools
    .filter((p) => (chainIds.length === 0 || chainIds.includes(p.chainId)) && ctx.listed(p))
    .map((pool) => merklOpportunity(ctx, pool))
    .filter((opportunity) => opportunity !== null)
    .filter((opportunity) => statuses.length === 0 || statuses.includes(opportunity.status));
  return all.slice(page * items, page * items + items);
}

/** An opportunity's status from its campaigns' dates at `now`: LIVE while one runs, else SOON before one starts. */
function opportunityStatus(campaigns: readonly FeedServerCampaign[], now: number): (typeof MERKL_STATUSES)[number] {
  if (campaigns.some((c) => c.startTimestamp <= now && now < c.endTimestamp)) return "LIVE";
  return campaigns.some((c) => now < c.startTimestamp) ? "SOON" : "PAST";
}

/** One pool's Merkl opportunity with its campaigns (null: the schedule has none started for it). */
function merklOpportunity(ctx: FeedContext, pool: FeedServerPool) {
  const id = demoMerklId(pool.chainId, pool.address);
  const v = poolValues(ctx, pool);
  const type = pool.protocol === "aave-v3" ? "AAVE_SUPPLY" : "UNISWAP_V2";
  const campaigns = ctx.campaigns === undefined ? [derivedCampaign(ctx, pool, id)] : startedCampaigns(ctx, pool);
  if (campaigns.length === 0) return null;
  const live = campaigns.filter((c) => c.startTimestamp <= ctx.now() && ctx.now() < c.endTimestamp);
  return {
    chainId: pool.chainId,
    type,
    identifier: pool.address,
    name: `${pool.kind === "amm" ? "Provide liquidity to" : "Supply"} ${pool.symbol} on ${PROTOCOL_NAMES[pool.protocol] ?? pool.protocol}`,
    status: opportunityStatus(campaigns, ctx.now()),
    action: pool.kind === "amm" ? "POOL" : "LEND",
    tvl: v.tvlUsd,
    apr: v.apyReward,
    dailyRewards: Math.round(live.reduce((n, c) => n + c.dailyRewardsUsd, 0)),
    tags: [],
    id,
    protocol: { id: pool.protocol.replace(/-v\d+$/, ""), name: PROTOCOL_NAMES[pool.protocol] ?? pool.protocol },
    campaigns: campaigns.map((c, i) => ({
      id: `${id}${i + 1}`,
      computeChainId: pool.chainId,
      distributionChainId: c.distributionChainId ?? pool.chainId,
      campaignId: c.campaignId,
      type,
      amount: c.amount.toString(),
      opportunityId: id,
      startTimestamp: c.startTimestamp,
      endTimestamp: c.endTimestamp,
      rewardToken: { ...c.rewardToken, chainId: pool.chainId },
    })),
  };
}

/** Without a schedule: one campaign derived from the pool's identity, from 30 days before the clock's day. */
function derivedCampaign(ctx: FeedContext, pool: FeedServerPool, id: string): FeedServerCampaign {
  const today = Math.floor(ctx.now() / DAY) * DAY;
  const v = poolValues(ctx, pool);
  return {
    chainId: pool.chainId,
    pool: pool.address,
    campaignId: keccak256(stringToHex(`campaign:${id}`)),
    startTimestamp: today - 30 * DAY,
    endTimestamp: today + (100 + Math.floor(unit(`end:${id}`) * 80)) * DAY,
    rewardToken: { address: pool.underlying?.[0] ?? pool.address, symbol: "RWD", decimals: 18 },
    amount: BigInt(Math.round(v.tvlUsd)) * 10n ** 16n,
    dailyRewardsUsd: (v.tvlUsd * v.apyReward) / 100 / 365,
  };
}
