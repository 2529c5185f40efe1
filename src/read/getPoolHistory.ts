import { listAttestationsOverlapping, listFirstDepthsByDay } from "../storage/attestations";
import { getDailyLows, utcDay, type DailyLow } from "../storage/poolDaily";
import { getDailyVolumes } from "../storage/poolVolume";
import type { ReadContext } from "./context";
import { defineSurface } from "./defineSurface";
import { PoolHistorySchema } from "./schemas/poolHistory";
import { checkParameter, type IntegerParameter } from "./internal/checkInteger";
import { claimTerms, type ClaimTerms } from "./internal/claimTerms";
import { addDays, dayRange, dayStart } from "./internal/utcDays";
import { resolvePool } from "./resolvePool";

export type GetPoolHistoryParameters = {
  /** The pool, in any of the three id shapes. */
  pool: string;
  /** Complete UTC days listed, ending yesterday: 1–730, default 90. */
  days?: number;
};

/** The parameters, declared once: the REST query and the MCP tool take them as written here. */
export const POOL_HISTORY_PARAMETERS = {
  days: { description: "complete UTC days listed, ending yesterday", minimum: 1, maximum: 730, default: 90 },
} as const satisfies Record<"days", IntegerParameter>;

/**
 * Where a day's low comes from: the service's own on-chain reading (`observed`), or DefiLlama's daily `/chart`
 * backfilled where the pool had no row for the day (`feed-daily`: the stored row has no block).
 */
export type PoolHistorySource = "observed" | "feed-daily";

/** One complete UTC day of the pool. */
export type PoolHistoryDay = {
  date: string;
  /** The day's lowest stored depth in USD; null when nothing was stored for the day. */
  lowestDepthUsd: number | null;
  /** `feed-daily` for a backfilled row; `observed` otherwise (a day with nothing stored too). */
  source: PoolHistorySource;
  /**
   * The depth in USD that the first attestation issued that UTC day states (`depth_at_issuance_usd`): its floor is
   * `floor` × this, and the model evaluation anchors the claim of the day on it. Null when none was issued that day.
   */
  depthUsd: number | null;
  /**
   * The day's swap volume in USD, summed from the pool's own `Swap` logs (`pool_volume_daily`, the rows
   * `GET /api/v1/volume` sums); null when no row is stored for the day (a lending reserve, or a day not read): no data,
   * never zero.
   */
  volumeUsd: number | null;
};

/** An issued attestation's claim: depth stays at or above `floorUsd` from `issuedAt` until `settlesAt`. */
export type PoolHistoryAttestation = ClaimTerms;

export type GetPoolHistoryReturnType = {
  /** The pool's qualified id (CAIP-10). */
  pool: string;
  /** Every complete UTC day of the range, oldest first, ending yesterday: `days` of them. */
  days: PoolHistoryDay[];
  /** The issued attestations whose claim window reaches into the range or beyond (the current one included), oldest first. */
  attestations: PoolHistoryAttestation[];
};

/**
 * A pool's history: its stored daily lows over the last `days` complete UTC days (ending yesterday), and the claims of
 * its issued attestations whose window `[issuedAt, settlesAt]` reaches into those days or beyond (issued up to now,
 * settling after the first day began: the current claim, issued today, included), so each claim's floor can be drawn
 * over the lows it covers. Each day also gives the depth its first attestation states (`depthUsd`), so every floor the
 * model evaluation publishes is checkable here. A tracked pool without an attestation still has a history (its
 * `attestations` is empty, every `depthUsd` null), and each day's swap volume from the pool's own `Swap` logs
 * (`volumeUsd`, null where none is stored). Four queries after the pool is resolved, whatever `days` is.
 *
 * @param context the {@link ReadContext}.
 * @param {@link GetPoolHistoryParameters}
 * @returns {@link GetPoolHistoryReturnType}
 * @throws `InvalidParameterError` when `days` is not an integer from 1 to 730; `InvalidPoolIdError`,
 * `PoolNotFoundError`, `AmbiguousPoolError` (see `resolvePool`).
 * @example
 * import { getPoolHistory } from "./read/getPoolHistory";
 * const { days, attestations } = await getPoolHistory(context, { pool: "eip155:8453:0x67ff…", days: 30 });
 */
export async function getPoolHistory(
  context: ReadContext,
  parameters: GetPoolHistoryParameters,
): Promise<GetPoolHistoryReturnType> {
  const days = checkParameter("days", POOL_HISTORY_PARAMETERS.days, parameters.days);
  const resolved = await resolvePool(context, { id: parameters.pool });
  const today = utcDay(context.now());
  const dates = dayRange(addDays(today, -1), days);
  const pool = { chainId: resolved.chainId, address: resolved.address };
  const [lows, attestations, depths, volumes] = await Promise.all([
    getDailyLows(context.db, pool.chainId, pool.address, { from: dates[0], to: dates[dates.length - 1] }),
    listAttestationsOverlapping(context.db, { ...pool, from: dayStart(dates[0]), to: context.now() + 1 }),
    listFirstDepthsByDay(context.db, { pool, from: dayStart(dates[0]), to: dayStart(today) }),
    getDailyVolumes(context.db, { fromDay: dates[0], toDay: dates[dates.length - 1], ...pool }),
  ]);
  const volumeByDay = new Map(volumes.map((volume) => [volume.day, volume.volumeUsd]));
  const byDay = new Map(lows.map((low) => [low.day, low]));
  const depthByDay = new Map(depths.map((entry) => [entry.day, entry.depthUsd]));
  return {
    pool: resolved.id,
    days: dates.map((date) => ({
      ...historyDay(date, byDay.get(date)),
      depthUsd: depthByDay.get(date) ?? null,
      volumeUsd: volumeByDay.get(date) ?? null,
    })),
    attestations: attestations.map(claimTerms),
  };
}

/** A day of the list from its stored low, if any. */
function historyDay(date: string, low: DailyLow | undefined): Omit<PoolHistoryDay, "depthUsd" | "volumeUsd"> {
  if (low === undefined) return { date, lowestDepthUsd: null, source: "observed" };
  return { date, lowestDepthUsd: low.lowestDepthUsd, source: low.source };
}

/** The surface, declared once: `GET /api/v1/pool/{pool}/history` and the MCP tool `get_pool_history` are derived from it. */
export const surface = defineSurface({
  title: "A pool's history: daily lows and past claims",
  label: "A pool's history",
  description: [
    "The evidence behind a pool's horizon over time: its lowest observed depth of each complete UTC day (oldest",
    "first, ending yesterday; null where nothing was observed, never zero; `source` feed-daily where the day came",
    "from DefiLlama's daily chart rather than an on-chain read; depthUsd: the depth the day's first attestation",
    "states, null when none, so each floor is checkable; volumeUsd: the day's swap volume from the pool's own Swap logs, null where none is stored, e.g. a lending reserve), and the claims of its issued attestations whose",
    "window reaches into those days or beyond, the current one included (issuedAt, horizon in days, confidence 0 to 1, floorUsd, settlesAt), to draw each",
    "floor over the lows it covers. A tracked pool without an attestation still has a history. Amounts are USD; times are Unix seconds; days are UTC days (YYYY-MM-DD).",
    "Errors: INVALID_POOL_ID, POOL_NOT_FOUND, AMBIGUOUS_POOL, INVALID_PARAMETER.",
  ].join(" "),
  parameters: { pool: { kind: "pool" }, days: { kind: "integer", integer: POOL_HISTORY_PARAMETERS.days } },
  tags: ["attestations"],
  output: PoolHistorySchema,
  outputTitle: "PoolHistory",
  errors: [400, 404, 409, 429, 500],
  cacheKey: "pool-history",
  read: (context, { pool, days }) => getPoolHistory(context, { pool, days }),
});
