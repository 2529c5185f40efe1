import { toUnits } from "../../model/pairMath";
import { utcDay } from "../../storage/poolDaily";
import type { VolumeBucket } from "../../storage/poolVolume";

/** One Uniswap V2 `Swap` log with the UTC hour of its block. */
export interface SwapEvent {
  block: bigint;
  logIndex: number;
  /** Start of the UTC hour of the block's timestamp, Unix seconds. */
  hour: number;
  amount0In: bigint;
  amount1In: bigint;
  amount0Out: bigint;
  amount1Out: bigint;
}

/** The prices (USD per whole token) a pass used for a pair's depth, and the tokens' decimals. */
export interface PairPrices {
  decimals0: number;
  decimals1: number;
  price0Usd: number | null;
  price1Usd: number | null;
  /** The oldest source timestamp of the prices present (`price0At`/`price1At`), or null for on-chain prices. */
  pricedAt: number | null;
}

/**
 * The USD volume of one swap at the pass's prices: the input side, `amount0In × p0 + amount1In × p1`. When only one
 * token is priced, that token's leg (its amount in plus its amount out, at its price); when neither is, null.
 *
 * @example
 * swapUsd(swap, { decimals0: 6, decimals1: 18, price0Usd: 1, price1Usd: 2000 }); // 1000 for 1,000 USDC in
 */
export function swapUsd(swap: SwapEvent, prices: PairPrices): number | null {
  const { decimals0, decimals1, price0Usd: p0, price1Usd: p1 } = prices;
  if (p0 !== null && p1 !== null)
    return toUnits(swap.amount0In, decimals0) * p0 + toUnits(swap.amount1In, decimals1) * p1;
  if (p0 !== null) return toUnits(swap.amount0In + swap.amount0Out, decimals0) * p0;
  if (p1 !== null) return toUnits(swap.amount1In + swap.amount1Out, decimals1) * p1;
  return null;
}

/** A pool's swaps summed by UTC hour (keyed by the hour's start) and by UTC day (`YYYY-MM-DD`). */
export interface SwapBuckets {
  hourly: Map<number, VolumeBucket>;
  daily: Map<string, VolumeBucket>;
}

/**
 * Sums a pool's swaps in USD by UTC hour and UTC day of their blocks. Null when the pair has no price at all (its
 * logs are then not counted, and its cursor does not move).
 *
 * @example
 * swapBuckets({ swaps, prices }); // { hourly: Map { 1790000000 => { volumeUsd, swaps } }, daily: Map { "2026-…" => … } }
 */
export function swapBuckets(parameters: { swaps: readonly SwapEvent[]; prices: PairPrices }): SwapBuckets | null {
  const { swaps, prices } = parameters;
  if (prices.price0Usd === null && prices.price1Usd === null) return null;
  const hourly = new Map<number, VolumeBucket>();
  const daily = new Map<string, VolumeBucket>();
  const add = <K>(map: Map<K, VolumeBucket>, key: K, usd: number) => {
    const bucket = map.get(key) ?? { volumeUsd: 0, swaps: 0 };
    map.set(key, { volumeUsd: bucket.volumeUsd + usd, swaps: bucket.swaps + 1 });
  };
  for (const swap of swaps) {
    const usd = swapUsd(swap, prices) ?? 0;
    add(hourly, swap.hour, usd);
    add(daily, utcDay(swap.hour), usd);
  }
  return { hourly, daily };
}

/**
 * The UTC days a read covered: from the day after the last second already read (`afterTime`) to the day of the last
 * block read (`throughTime`), oldest first. Each gets a `pool_volume_daily` row, 0 when it had no swap.
 *
 * @example
 * coveredDays({ afterTime: Date.UTC(2026, 9, 1, 23) / 1000, throughTime: Date.UTC(2026, 9, 3, 1) / 1000 });
 * // ["2026-10-01", "2026-10-02", "2026-10-03"]
 */
export function coveredDays(parameters: { afterTime: number; throughTime: number }): string[] {
  const days: string[] = [];
  const last = utcDay(parameters.throughTime);
  for (let day = utcDay(parameters.afterTime + 1); day <= last;) {
    days.push(day);
    day = utcDay(Date.parse(`${day}T00:00:00Z`) / 1000 + 86_400);
  }
  return days;
}

/**
 * A pair's prices from the state its on-chain reading recorded (`decimals0/1`, `price0Usd/price1Usd`: the prices
 * the pass valued its depth with). Null without decimals (the pair was not read).
 */
export function pairPricesFromState(state: Readonly<Record<string, string | number>>): PairPrices | null {
  const d0 = Number(state.decimals0);
  const d1 = Number(state.decimals1);
  if (
    state.decimals0 === undefined ||
    state.decimals1 === undefined ||
    !Number.isInteger(d0) ||
    !Number.isInteger(d1)
  ) {
    return null;
  }
  const price = (value: string | number | undefined) =>
    value === undefined || !Number.isFinite(Number(value)) ? null : Number(value);
  const price0Usd = price(state.price0Usd);
  const price1Usd = price(state.price1Usd);
  const times = [price0Usd !== null ? price(state.price0At) : null, price1Usd !== null ? price(state.price1At) : null];
  const known = times.filter((t): t is number => t !== null);
  return {
    decimals0: d0,
    decimals1: d1,
    price0Usd,
    price1Usd,
    pricedAt: known.length > 0 ? Math.min(...known) : null,
  };
}
