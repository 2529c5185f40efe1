import { isStale } from "../../model/freshness";
import type { PoolRecord } from "../../storage/pools";
import { poolIdentity, type PoolIdentity } from "./poolIdentity";

/**
 * The four liquidity dimensions every market surface publishes per pool (docs/market-api.md), in their published order.
 */
export const DIMENSIONS = ["depthUsd", "volume24hUsd", "yieldPct", "exitabilityUsd"] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** A value held out of totals and rankings because it is older than the freshness window, published with its age. */
export type StaleEntry = {
  /** The pool's qualified id (or the feed figure's id). */
  id: string;
  field: string;
  value: number | null;
  /** Unix seconds of the observation; null when its time was never recorded. */
  observedAt: number | null;
};

/**
 * A lending reserve's rates and utilisation, from the same on-chain reading as its supply rate (Aave's
 * `getReserveData` and its debt tokens' supplies). The rates are Aave's annual rates as read (`currentLiquidityRate`,
 * `currentVariableBorrowRate`): APRs in percent, not compounded. Each is null when the reading did not carry it.
 */
export type LendingRates = {
  /** The supply rate, a percent (the lending `yieldPct`). */
  supplyAprPct: number | null;
  /** The variable borrow rate, a percent. */
  borrowAprPct: number | null;
  /** Borrowed ÷ supplied, 0–1 (null when nothing is supplied or the reading has no totals). */
  utilisation: number | null;
  /** Unix seconds of the reading (the supply rate's observation time). */
  observedAt: number | null;
  /** Older than the freshness window (as `yieldPct`'s staleness). */
  stale: boolean;
};

/** One pool with its four dimensions, each with its own observation time and freshness. */
export type PoolDimensions = PoolIdentity & {
  /** USD the pool holds now (lending: supplied − borrowed). */
  depthUsd: number | null;
  /** Last 24 h of swaps in USD (AMM); null for lending. */
  volume24hUsd: number | null;
  /** APY in percent: AMM base + reward APY from the yields feed; lending: the supply rate (already a percent). */
  yieldPct: number | null;
  /** Lending: supplied − borrowed, exact. AMM: null (not exact there). */
  exitabilityUsd: number | null;
  /** When each dimension was observed (Unix seconds); null when not measured. */
  observedAt: Record<Dimension, number | null>;
  /** The dimensions whose value is older than the freshness window: held out of totals and `largest`. */
  staleFields: Dimension[];
  /** Whether any measured dimension is stale (`staleFields` is not empty). */
  stale: boolean;
  /** Lending: the reserve's supply and borrow rates and utilisation; AMM: null. */
  lending: LendingRates | null;
  /**
   * AMM: the yields feed's split of `yieldPct` into base (the pool's own yield) and reward (incentives) APY, percent,
   * from the same feed row as `yieldPct` (so observed with it); null when the feed gave neither part, and for lending.
   */
  yieldSplit: { basePct: number | null; rewardPct: number | null } | null;
};

/** Each dimension's stored value and its own observation time. */
function measured(pool: PoolRecord): Record<Dimension, [number | null, number | null]> {
  const lending = pool.kind === "lending";
  return {
    depthUsd: [pool.depthUsd, pool.depthObservedAt],
    volume24hUsd: lending ? [null, null] : [pool.volume24hUsd, pool.volumeObservedAt],
    yieldPct: lending ? [pool.supplyRatePercent, pool.supplyRateObservedAt] : [pool.apyPercent, pool.apyObservedAt],
    exitabilityUsd: lending ? [pool.exitableUsd, pool.exitableObservedAt] : [null, null],
  };
}

/**
 * The four dimensions of a stored pool. `null` means "not measured" (never zero). A value is stale when ITS OWN
 * observation time is older than `windowS` (or was never recorded): a yields row without an APY leaves the old APY
 * to age instead of passing for fresh. A dimension that is not measured is never stale.
 */
export function poolDimensions(row: PoolRecord, { now, windowS }: { now: number; windowS: number }): PoolDimensions {
  const values = {} as Record<Dimension, number | null>;
  const observedAt = {} as Record<Dimension, number | null>;
  const staleFields: Dimension[] = [];
  const stored = measured(row);
  for (const dimension of DIMENSIONS) {
    const value = stored[dimension][0];
    const at = value === null ? null : stored[dimension][1];
    values[dimension] = value;
    observedAt[dimension] = at;
    if (value !== null && isStale({ observedAt: at, now, windowS })) staleFields.push(dimension);
  }
  return {
    ...poolIdentity(row),
    ...values,
    observedAt,
    staleFields,
    stale: staleFields.length > 0,
    lending: row.kind === "lending" ? lendingRates(row, { now, windowS }) : null,
    yieldSplit: yieldSplit(row),
  };
}

/** An AMM pool's stored APY split, or null when the feed gave neither part (or the pool lends). */
function yieldSplit(row: PoolRecord): PoolDimensions["yieldSplit"] {
  if (row.kind !== "amm" || row.apyPercent === null) return null;
  const basePct = row.apyBasePercent;
  const rewardPct = row.apyRewardPercent;
  return basePct === null && rewardPct === null ? null : { basePct, rewardPct };
}

/** A lending pool's rates: its supply rate, and the borrow rate and totals its stored on-chain state holds. */
function lendingRates(row: PoolRecord, { now, windowS }: { now: number; windowS: number }): LendingRates {
  const supplyAprPct = row.supplyRatePercent;
  const observedAt = row.supplyRateObservedAt;
  const state = parseState(row.stateJson);
  const borrowAprPct = typeof state.variableBorrowRatePercent === "number" ? state.variableBorrowRatePercent : null;
  const measured = supplyAprPct !== null || borrowAprPct !== null;
  return {
    supplyAprPct,
    borrowAprPct,
    utilisation: utilisationOf(state.supplied, state.borrowed),
    observedAt,
    stale: measured && isStale({ observedAt, now, windowS }),
  };
}

/** The stored on-chain state (JSON text), or `{}` when there is none or it does not parse. */
function parseState(json: string | null): Record<string, unknown> {
  if (json === null) return {};
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Borrowed ÷ supplied from base-unit integers (decimal strings), to 6 digits; null when not both or none supplied. */
function utilisationOf(supplied: unknown, borrowed: unknown): number | null {
  if (typeof supplied !== "string" || typeof borrowed !== "string") return null;
  if (!/^[0-9]+$/.test(supplied) || !/^[0-9]+$/.test(borrowed)) return null;
  const s = BigInt(supplied);
  if (s === 0n) return null;
  return Number((BigInt(borrowed) * 1_000_000n) / s) / 1_000_000;
}

/** Whether a pool's dimension holds a fresh, measured value (one that may enter a total or `largest`). */
export function isFreshValue(pool: PoolDimensions, dimension: Dimension): boolean {
  return pool[dimension] !== null && !pool.staleFields.includes(dimension);
}

/** The stale entries of a pool (one per stale dimension), for the `stale` array beside a total. */
export function staleEntriesOf(pool: PoolDimensions, fields: readonly Dimension[] = DIMENSIONS): StaleEntry[] {
  return pool.staleFields
    .filter((field) => fields.includes(field))
    .map((field) => ({ id: pool.id, field, value: pool[field], observedAt: pool.observedAt[field] }));
}

/** Sum of the values, or null when there is none to sum (a total of nothing is not a zero). */
export function sumOrNull(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((total, value) => total + value, 0);
}
