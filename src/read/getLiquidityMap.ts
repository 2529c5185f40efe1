import { capsDepthClaim, listCampaignRecordsForPools, type CampaignRecord } from "../storage/campaigns";
import { utcDay } from "../storage/poolDaily";
import { listPools } from "../storage/pools";
import type { ReadContext } from "./context";
import { defineSurface } from "./defineSurface";
import { checkParameter, type IntegerParameter } from "./internal/checkInteger";
import { compareText } from "./internal/compareText";
import {
  isFreshValue,
  poolDimensions,
  staleEntriesOf,
  sumOrNull,
  type PoolDimensions,
  type StaleEntry,
} from "./internal/poolDimensions";
import { LiquidityMapSchema } from "./schemas/liquidityMap";
import { AS_OF, UNITS, freshnessRule } from "./sentences";

/** A campaign as the expiry calendar lists it: as the store gives it (Merkl's fields; never joined to the yields feed). */
export type CalendarCampaign = CampaignRecord;

/** One date of the expiry calendar: the pools whose last known depth campaign (not borrow-side) ends that day. */
export type ExpiryDate = {
  /** UTC day, `YYYY-MM-DD`. */
  date: string;
  /** Sum of the fresh depths of the pools below (each counted once); null when none of them has a fresh depth. */
  depthUsd: number | null;
  pools: {
    id: string;
    /** The pool's stored depth (held out of `depthUsd` when `stale`). */
    depthUsd: number | null;
    stale: boolean;
    /**
     * Every known campaign of the pool, by end time, borrow-side ones included; the last that can cap a depth claim
     * (`capsDepthClaim`: not borrow-side) places the pool on this date.
     */
    campaigns: CalendarCampaign[];
  }[];
};

export type GetLiquidityMapParameters = {
  /** Only this chain (its entry, and its pools on the calendar). Default: every chain. */
  chainId?: number;
  /** Pools listed per chain, by id: 1–1000, default 50. Totals and `stale` always cover every pool. */
  limit?: number;
  /** Pools skipped per chain before listing (paging by id): default 0. */
  offset?: number;
};

/**
 * The parameters, declared once: the REST query and the MCP tool take them as written here. The page of pools per
 * chain is bounded: a map of 1,000 pools is 675 KiB, a page of 50 per chain about 40 KiB.
 */
export const LIQUIDITY_MAP_PARAMETERS = {
  chainId: { description: "only this chain", minimum: 1 },
  limit: { description: "pools listed per chain, by id", minimum: 1, maximum: 1000, default: 50 },
  offset: { description: "pools skipped per chain before listing", minimum: 0, default: 0 },
} as const satisfies Record<keyof GetLiquidityMapParameters, IntegerParameter>;

export type GetLiquidityMapReturnType = {
  asOf: number;
  freshnessWindowS: number;
  /** Chains with tracked pools, by chain id; pools by id. */
  chains: {
    chainId: number;
    /** Sum of the chain's fresh depths; null when no pool of the chain has one. */
    totalDepthUsd: number | null;
    /** Pools whose fresh depth is in the total. */
    depthPools: number;
    /** How many pools the chain tracks; `pools` lists `limit` of them from `offset`, by id. */
    poolsTotal: number;
    pools: PoolDimensions[];
    /** The chain's stale depths, held out of `totalDepthUsd`. */
    stale: StaleEntry[];
  }[];
  /** By date, oldest first. */
  expiryCalendar: ExpiryDate[];
  /** Every stale value of the payload (any dimension), by pool id then field. */
  stale: StaleEntry[];
};

/**
 * The liquidity map: per chain, the fresh total depth and every pool with its four dimensions (each `null` when not
 * measured, each judged stale by its own observation time); the expiry calendar, which places each pool's depth once
 * on the date its last known incentive campaign ends (campaigns matched through the pool's `merkl_id`, never joined to
 * yields); and every stale value beside the totals. No composite score: nothing here combines the dimensions.
 *
 * @param context the {@link ReadContext}.
 * @returns {@link GetLiquidityMapReturnType}
 * @example
 * import { getLiquidityMap } from "./read/getLiquidityMap";
 * const { chains, expiryCalendar, stale } = await getLiquidityMap(context);
 */
export async function getLiquidityMap(
  context: ReadContext,
  parameters: GetLiquidityMapParameters = {},
): Promise<GetLiquidityMapReturnType> {
  const { db, freshnessWindowS, now } = context;
  const { chainId, limit: limitParameter, offset: offsetParameter } = parameters;
  const limit = checkParameter("limit", LIQUIDITY_MAP_PARAMETERS.limit, limitParameter);
  const offset = checkParameter("offset", LIQUIDITY_MAP_PARAMETERS.offset, offsetParameter);
  const only = chainId === undefined ? null : checkParameter("chainId", LIQUIDITY_MAP_PARAMETERS.chainId, chainId);
  const at = now();
  const rows = (await listPools(db)).filter((row) => only === null || row.chainId === only);
  const pools = rows.map((row) => poolDimensions(row, { now: at, windowS: freshnessWindowS }));
  const withCampaigns = rows.flatMap((row, i) =>
    row.merklId === null ? [] : [{ pool: pools[i], chainId: row.chainId, merklId: row.merklId }],
  );
  const campaigns = await listCampaignRecordsForPools(db, withCampaigns);

  const chainIds = [...new Set(pools.map((pool) => pool.chainId))].sort((a, b) => a - b);
  const chains = chainIds.map((chainId) => {
    const ofChain = pools.filter((pool) => pool.chainId === chainId).sort((a, b) => compareText(a.id, b.id));
    const fresh = ofChain.filter((pool) => isFreshValue(pool, "depthUsd"));
    return {
      chainId,
      totalDepthUsd: sumOrNull(fresh.map((pool) => pool.depthUsd as number)),
      depthPools: fresh.length,
      poolsTotal: ofChain.length,
      pools: ofChain.slice(offset, offset + limit),
      stale: ofChain.flatMap((pool) => staleEntriesOf(pool, ["depthUsd"])),
    };
  });
  return {
    asOf: at,
    freshnessWindowS,
    chains,
    expiryCalendar: expiryCalendarOf(withCampaigns.map(({ pool }, i) => ({ pool, campaigns: campaigns[i] }))),
    stale: pools.sort((a, b) => compareText(a.id, b.id)).flatMap((pool) => staleEntriesOf(pool)),
  };
}

/**
 * Each pool once, on the UTC day its last known campaign that can cap a depth claim ends ({@link capsDepthClaim}: not
 * a borrow-side one); pools without such a campaign with an end are left out.
 */
function expiryCalendarOf(entries: { pool: PoolDimensions; campaigns: CalendarCampaign[] }[]): ExpiryDate[] {
  const byDate = new Map<string, ExpiryDate["pools"]>();
  for (const { pool, campaigns } of entries) {
    const ends = campaigns
      .filter(capsDepthClaim)
      .map((campaign) => campaign.endsAt)
      .filter((end): end is number => end !== null);
    if (ends.length === 0) continue;
    const date = utcDay(Math.max(...ends));
    const list = byDate.get(date) ?? [];
    list.push({
      id: pool.id,
      depthUsd: pool.depthUsd,
      stale: pool.depthUsd !== null && !isFreshValue(pool, "depthUsd"),
      campaigns,
    });
    byDate.set(date, list);
  }
  return [...byDate]
    .sort(([a], [b]) => compareText(a, b))
    .map(([date, list]) => {
      const poolsOfDate = list.sort((a, b) => compareText(a.id, b.id));
      const fresh = poolsOfDate.filter((pool) => pool.depthUsd !== null && !pool.stale);
      return { date, depthUsd: sumOrNull(fresh.map((pool) => pool.depthUsd as number)), pools: poolsOfDate };
    });
}

/** The surface, declared once: `GET /api/v1/liquidity-map` and the MCP tool `get_liquidity_map` are derived from it. */
export const surface = defineSurface({
  title: "Liquidity map",
  label: "Liquidity map",
  description: ({ freshnessWindowS }) =>
    [
      "Per chain (`chains`): the total fresh depth in USD and its pools with four dimensions each: depthUsd, volume24hUsd (AMM),",
      "yieldPct (APY in percent) and exitabilityUsd (lending: supplied − borrowed), each with its own observation time",
      "and judged stale on its own (`staleFields`); null means not measured, never zero. A lending reserve also has",
      "`lending` (supplyAprPct, borrowAprPct, utilisation; null for AMMs). Also the campaign expiry",
      "calendar (`expiryCalendar`: each pool once, on the UTC date its last known incentive campaign ends) and every stale value",
      `beside the totals. No composite score. ${UNITS} ${freshnessRule(freshnessWindowS)}`,
      "Bounded: each chain lists `limit` pools from `offset`, by id; `poolsTotal` says how many it tracks (page with",
      "offset); totals, the calendar and `stale` always cover every pool. Errors: INVALID_PARAMETER.",
      AS_OF,
    ].join(" "),
  parameters: {
    chainId: { kind: "integer", integer: LIQUIDITY_MAP_PARAMETERS.chainId },
    limit: { kind: "integer", integer: LIQUIDITY_MAP_PARAMETERS.limit },
    offset: { kind: "integer", integer: LIQUIDITY_MAP_PARAMETERS.offset },
  },
  tags: ["market"],
  output: LiquidityMapSchema,
  outputTitle: "LiquidityMap",
  errors: [400, 429, 500, 503],
  cacheKey: "liquidity-map",
  read: (context, { chainId, limit, offset }) => getLiquidityMap(context, { chainId, limit, offset }),
});
