import { isStale } from "../../model/freshness";
import type { Pool } from "../../storage/schema";
import { toNumberOrNull } from "../context";
import { poolIdentity, type PoolIdentity } from "./poolIdentity";

/** The four liquidity dimensions every market surface publishes per pool (DESIGN §6), in their published order. */
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
};

/** Each dimension's stored value and the column holding its own observation time. */
function measured(row: Pool): Record<Dimension, [number | null | string, number | null | string]> {
  const lending = row.kind === "lending";
  return {
    depthUsd: [row.depth_usd, row.depth_observed_at],
    volume24hUsd: lending ? [null, null] : [row.volume_24h_usd, row.volume_observed_at],
    yieldPct: lending ? [row.supply_rate_percent, row.supply_rate_observed_at] : [row.apy_percent, row.apy_observed_at],
    exitabilityUsd: lending ? [row.exitable_usd, row.exitable_observed_at] : [null, null],
  };
}

/**
 * The four dimensions of a stored pool row. `null` means "not measured" (never zero). A value is stale when ITS OWN
 * observation time is older than `windowS` (or was never recorded): a yields row without an APY leaves the old APY
 * to age instead of passing for fresh. A dimension that is not measured is never stale.
 */
export function poolDimensions(row: Pool, { now, windowS }: { now: number; windowS: number }): PoolDimensions {
  const values = {} as Record<Dimension, number | null>;
  const observedAt = {} as Record<Dimension, number | null>;
  const staleFields: Dimension[] = [];
  const stored = measured(row);
  for (const dimension of DIMENSIONS) {
    const value = toNumberOrNull(stored[dimension][0]);
    const at = value === null ? null : toNumberOrNull(stored[dimension][1]);
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
  };
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
