import { utcDay } from "../storage/poolDaily";
import { sumDexVolumes } from "../storage/dexVolumes";
import { listPools } from "../storage/pools";
import { sumFreshVolumeByVenueChainDay, sumVolumeByPool } from "../storage/poolVolume";
import { isStale } from "../model/freshness";
import type { ReadContext } from "./context";
import { defineSurface } from "./defineSurface";
import { compareText } from "./internal/compareText";
import { isFreshValue, poolDimensions, type PoolDimensions } from "./internal/poolDimensions";
import { checkParameter, type IntegerParameter } from "./internal/checkInteger";
import { addDays, dayRange, dayStart } from "./internal/utcDays";
import { VolumeSchema } from "./schemas/volume";
import { AS_OF, UNITS, freshnessRule } from "./sentences";

export type GetVolumeParameters = {
  /** Complete UTC days in the window, ending yesterday: 1–365, default 30. */
  days?: number;
  /** How many pools `byTurnover` lists (highest turnover first): 1–1000, default 50. `byTurnoverTotal` says of how many. */
  turnoverLimit?: number;
};

/** The parameters, declared once: the REST query and the MCP tool take them as written here. */
export const VOLUME_PARAMETERS = {
  days: { description: "complete UTC days in the window, ending yesterday", minimum: 1, maximum: 365, default: 30 },
  turnoverLimit: {
    description: "how many pools byTurnover lists, highest turnover first; byTurnoverTotal says of how many",
    minimum: 1,
    maximum: 1000,
    default: 50,
  },
} as const satisfies Record<keyof GetVolumeParameters, IntegerParameter>;

/** Where a volume figure comes from: the pools' own `Swap` logs read on chain, or DefiLlama's dex-volumes feed. */
export type VolumeSource = "swap-logs" | "defillama-dexs";

/** One UTC day of the on-chain series. */
export type VolumeDay = {
  date: string;
  /** Sum over the counted pools' rows of that day; null when none of them has a row (no data, not zero). */
  volumeUsd: number | null;
  /** Counted pools with a row that day. */
  pools: number;
  /** Every counted pool has a row for the day read past its end (the next UTC midnight); today never is. */
  complete: boolean;
};

/** A value held out of the totals: a stale pool (or feed chain), with what it would have added. */
export type VolumeStaleEntry = {
  id: string;
  field: "volume24hUsd" | "depthUsd" | "volumeUsd";
  value: number | null;
  observedAt: number | null;
  /** The on-chain volume of the window's days held out with the pool (null when it has no row in the window). */
  windowVolumeUsd?: number | null;
  source: VolumeSource;
};

export type GetVolumeReturnType = {
  asOf: number;
  freshnessWindowS: number;
  /** The complete UTC days the series, the heatmap and the totals cover (`days` of them, ending yesterday). */
  window: { from: string; to: string; days: number };
  days: VolumeDay[];
  /** Today's partial day so far: shown, never summed into a total. */
  today: VolumeDay;
  /** Venue (the pool's `protocol`) by day over the window; `null` is "no data", never zero. */
  heatmap: { venues: string[]; dates: string[]; cells: (number | null)[][]; source: "swap-logs" };
  /** On-chain totals over the window, by chain id. */
  byChain: { chainId: number; volumeUsd: number | null; pools: number; source: "swap-logs" }[];
  /** On-chain totals over the window, by venue. */
  byVenue: { venue: string; volumeUsd: number | null; pools: number; source: "swap-logs" }[];
  /**
   * Pools with a fresh 24 h volume and a fresh, positive depth, by turnover (highest first, then id): the first
   * `turnoverLimit` of `byTurnoverTotal`.
   */
  byTurnover: {
    id: string;
    chainId: number;
    venue: string;
    volume24hUsd: number;
    depthUsd: number;
    turnover: number;
    source: "swap-logs";
  }[];
  /** How many pools have a fresh turnover (`byTurnover` lists the first `turnoverLimit` of them). */
  byTurnoverTotal: number;
  /** The dex-volumes feed over the same days, as the feed names chains and protocols (fresh chains only). */
  feed: {
    byChain: { chain: string; volumeUsd: number; days: number; source: "defillama-dexs" }[];
    byVenue: { chain: string; venue: string; volumeUsd: number; days: number; source: "defillama-dexs" }[];
  };
  /** AMM pools whose volume is fresh (counted) and stale with a value (held out); never-measured pools are neither. */
  pools: { counted: number; heldOut: number };
  stale: VolumeStaleEntry[];
};

/**
 * Swap volume: a daily series, a venue-by-day heatmap, totals by chain and by venue, and pools by turnover
 * (`volume24hUsd / depthUsd`), from `pool_volume_daily` and the pools' rolling 24 h figure; the dex-volumes feed is
 * published beside them as separate figures. A pool whose volume is stale is held out of every total and of
 * `byTurnover`, and listed in `stale` with what it would have added. The window holds complete UTC days only (ending
 * yesterday); today's partial day is published in `today` and never summed.
 *
 * @param context the {@link ReadContext}.
 * @param {@link GetVolumeParameters}
 * @returns {@link GetVolumeReturnType}
 * @throws `InvalidParameterError` when `days` is not an integer from 1 to 365 (or `turnoverLimit` from 1 to 1000).
 * @example
 * import { getVolume } from "./read/getVolume";
 * const { byChain, stale } = await getVolume(context, { days: 7 });
 */
export async function getVolume(
  context: ReadContext,
  parameters: GetVolumeParameters = {},
): Promise<GetVolumeReturnType> {
  const days = checkParameter("days", VOLUME_PARAMETERS.days, parameters.days);
  const turnoverLimit = checkParameter("turnoverLimit", VOLUME_PARAMETERS.turnoverLimit, parameters.turnoverLimit);
  const { db, freshnessWindowS, now } = context;
  const at = now();
  const today = utcDay(at);
  const dates = dayRange(addDays(today, -1), days);
  const window = { fromDay: dates[0], toDay: dates[dates.length - 1] };
  // The SQL side of the freshness rule: fresh ⇔ observed at or after now − window (model/freshness `isStale`).
  const cutoff = at - freshnessWindowS;
  const [rows, poolRows, heldOut, feedRows] = await Promise.all([
    sumFreshVolumeByVenueChainDay(db, { fromDay: window.fromDay, toDay: today, observedSince: cutoff }),
    listPools(db),
    sumVolumeByPool(db, { ...window, observedBefore: cutoff }),
    sumDexVolumes(db, window),
  ]);
  const amms: AmmPool[] = poolRows
    .filter((row) => row.kind === "amm")
    .map((row) => {
      const volumeObservedAt = row.volumeObservedAt;
      return {
        ...poolDimensions(row, { now: at, windowS: freshnessWindowS }),
        volumeObservedAt,
        counted: !isStale({ observedAt: volumeObservedAt, now: at, windowS: freshnessWindowS }),
      };
    });
  const counted = amms.filter((pool) => pool.counted);
  const byDay = groupSum(rows, (row) => row.day);
  // A day is complete when every counted pool has a row for it read past its end (the next UTC midnight).
  const dayOf = (date: string): VolumeDay => {
    const sum = byDay.get(date);
    return {
      date,
      volumeUsd: sum?.volumeUsd ?? null,
      pools: sum?.pools ?? 0,
      complete: sum !== undefined && sum.pools === counted.length && sum.observedAt >= dayStart(date) + 86_400,
    };
  };
  const windowRows = rows.filter((row) => row.day !== today);
  const stale = staleEntriesOf(amms, heldOut);
  const turnover = turnoverOf(counted);
  const feed = feedFigures(feedRows, cutoff);
  return {
    asOf: at,
    freshnessWindowS,
    window: { from: window.fromDay, to: window.toDay, days },
    days: dates.map(dayOf),
    today: dayOf(today),
    heatmap: heatmapOf(counted, windowRows, dates),
    byChain: totalsBy(
      counted,
      windowRows,
      (pool) => pool.chainId,
      (row) => row.chainId,
    )
      .sort((a, b) => a.key - b.key)
      .map(({ key, volumeUsd, pools }) => ({ chainId: key, volumeUsd, pools, source: "swap-logs" as const })),
    byVenue: totalsBy(
      counted,
      windowRows,
      (pool) => pool.protocol,
      (row) => row.venue,
    )
      .sort((a, b) => compareText(a.key, b.key))
      .map(({ key, volumeUsd, pools }) => ({ venue: key, volumeUsd, pools, source: "swap-logs" as const })),
    byTurnover: turnover.slice(0, turnoverLimit),
    byTurnoverTotal: turnover.length,
    feed: feed.figures,
    pools: { counted: counted.length, heldOut: stale.filter((entry) => entry.field === "volume24hUsd").length },
    stale: [...stale, ...feed.stale],
  };
}

/** An AMM pool's dimensions, when its log reader last read (`volume_observed_at`), and whether that is fresh. */
type AmmPool = PoolDimensions & { volumeObservedAt: number | null; counted: boolean };
type DayRows = Awaited<ReturnType<typeof sumFreshVolumeByVenueChainDay>>;

type Sum = { volumeUsd: number; pools: number; observedAt: number };

/** Sums rows by a key: the volume, the pools that have a row, and the oldest row's `observed_at`. */
function groupSum<K>(rows: DayRows, key: (row: DayRows[number]) => K): Map<K, Sum> {
  const sums = new Map<K, Sum>();
  for (const row of rows) {
    const sum = sums.get(key(row)) ?? { volumeUsd: 0, pools: 0, observedAt: Infinity };
    sum.volumeUsd += row.volumeUsd;
    sum.pools += row.pools;
    sum.observedAt = Math.min(sum.observedAt, row.observedAt);
    sums.set(key(row), sum);
  }
  return sums;
}

/** Totals over the window per group of counted pools (every group of a counted pool appears; null when no row). */
function totalsBy<K extends string | number>(
  counted: readonly AmmPool[],
  rows: DayRows,
  poolKey: (pool: AmmPool) => K,
  rowKey: (row: DayRows[number]) => K,
): { key: K; volumeUsd: number | null; pools: number }[] {
  const sums = groupSum(rows, rowKey);
  const pools = new Map<K, number>();
  for (const pool of counted) pools.set(poolKey(pool), (pools.get(poolKey(pool)) ?? 0) + 1);
  return [...pools].map(([key, n]) => ({ key, volumeUsd: sums.get(key)?.volumeUsd ?? null, pools: n }));
}

function heatmapOf(counted: readonly AmmPool[], rows: DayRows, dates: string[]): GetVolumeReturnType["heatmap"] {
  const venues = [...new Set(counted.map((pool) => pool.protocol))].sort(compareText);
  const sums = groupSum(rows, (row) => `${row.venue}\n${row.day}`);
  const cells = venues.map((venue) => dates.map((date) => sums.get(`${venue}\n${date}`)?.volumeUsd ?? null));
  return { venues, dates, cells, source: "swap-logs" };
}

function turnoverOf(counted: readonly AmmPool[]): GetVolumeReturnType["byTurnover"] {
  return counted
    .filter(
      (pool) => isFreshValue(pool, "volume24hUsd") && isFreshValue(pool, "depthUsd") && (pool.depthUsd as number) > 0,
    )
    .map((pool) => ({
      id: pool.id,
      chainId: pool.chainId,
      venue: pool.protocol,
      volume24hUsd: pool.volume24hUsd as number,
      depthUsd: pool.depthUsd as number,
      turnover: (pool.volume24hUsd as number) / (pool.depthUsd as number),
      source: "swap-logs" as const,
    }))
    .sort((a, b) => b.turnover - a.turnover || compareText(a.id, b.id));
}

/** Stale volumes (held out of every total) and, for pools otherwise in `byTurnover`, their stale depths. */
function staleEntriesOf(
  amms: readonly AmmPool[],
  heldOut: Awaited<ReturnType<typeof sumVolumeByPool>>,
): VolumeStaleEntry[] {
  const held = new Map(heldOut.map((row) => [`${row.chainId}:${row.address}`, row.volumeUsd]));
  const entries: VolumeStaleEntry[] = [];
  for (const pool of amms) {
    const windowVolumeUsd = held.get(`${pool.chainId}:${pool.address}`);
    if (!pool.counted) {
      if (pool.volume24hUsd === null && windowVolumeUsd === undefined) continue; // never measured: nothing held out
      entries.push({
        id: pool.id,
        field: "volume24hUsd",
        value: pool.volume24hUsd,
        observedAt: pool.volumeObservedAt,
        windowVolumeUsd: windowVolumeUsd ?? null,
        source: "swap-logs",
      });
    } else if (pool.volume24hUsd !== null && pool.staleFields.includes("depthUsd")) {
      entries.push({
        id: pool.id,
        field: "depthUsd",
        value: pool.depthUsd,
        observedAt: pool.observedAt.depthUsd,
        source: "swap-logs",
      });
    }
  }
  return entries.sort((a, b) => compareText(a.id, b.id) || compareText(a.field, b.field));
}

/** The feed's figures for the chains it reported within the freshness window; the others held out as stale. */
function feedFigures(
  rows: Awaited<ReturnType<typeof sumDexVolumes>>,
  cutoff: number,
): { figures: GetVolumeReturnType["feed"]; stale: VolumeStaleEntry[] } {
  const figures: GetVolumeReturnType["feed"] = { byChain: [], byVenue: [] };
  const stale: VolumeStaleEntry[] = [];
  for (const chain of [...new Set(rows.map((row) => row.chain))].sort(compareText)) {
    const ofChain = rows.filter((row) => row.chain === chain).sort((a, b) => compareText(a.protocol, b.protocol));
    const observedAt = Math.max(...ofChain.map((row) => row.observedAt));
    const volumeUsd = ofChain.reduce((total, row) => total + row.volumeUsd, 0);
    const days = Math.max(...ofChain.map((row) => row.days));
    if (observedAt < cutoff) {
      const id = `defillama-dexs:${chain}`;
      stale.push({ id, field: "volumeUsd", value: volumeUsd, observedAt, source: "defillama-dexs" });
      continue;
    }
    figures.byChain.push({ chain, volumeUsd, days, source: "defillama-dexs" });
    for (const row of ofChain) {
      const venue = { chain, venue: row.protocol, volumeUsd: row.volumeUsd, days: row.days };
      figures.byVenue.push({ ...venue, source: "defillama-dexs" });
    }
  }
  return { figures, stale };
}

/** The surface, declared once: `GET /api/v1/volume` and the MCP tool `get_volume` are derived from it. */
export const surface = defineSurface({
  title: "Swap volume",
  label: "Swap volume",
  description: ({ freshnessWindowS }) =>
    [
      "On-chain swap volume in USD, read from the pools' own Swap logs: a daily series over `days` complete UTC days",
      "ending yesterday (`window` says which; today's partial day is in `today`, never summed), a venue × day heatmap,",
      "totals by chain and by venue (`byChain`, `byVenue`), and pools by turnover (24 h volume / depth, highest first). null means no data, never zero.",
      "DefiLlama's dex-volume feed is published beside them in `feed`, as separate figures. Pools whose volume is",
      `stale are held out of every total and listed in \`stale\` with what they would have added. ${UNITS}`,
      `${freshnessRule(freshnessWindowS)} Bounded: byTurnover lists at most turnoverLimit pools`,
      `(byTurnoverTotal says of how many). ${AS_OF} Errors: INVALID_PARAMETER.`,
    ].join(" "),
  parameters: {
    days: { kind: "integer", integer: VOLUME_PARAMETERS.days },
    turnoverLimit: { kind: "integer", integer: VOLUME_PARAMETERS.turnoverLimit },
  },
  tags: ["market"],
  output: VolumeSchema,
  outputTitle: "Volume",
  errors: [400, 429, 500, 503],
  cacheKey: "volume",
  read: (context, { days, turnoverLimit }) => getVolume(context, { days, turnoverLimit }),
});
