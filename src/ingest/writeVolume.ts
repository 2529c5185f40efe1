import type { Kysely } from "kysely";
import { advanceLogCursor } from "../storage/logCursors";
import { addDailyVolume, addHourlyVolume, pruneHourlyVolume, sumHourlyVolume } from "../storage/poolVolume";
import type { Database } from "../storage/schema";
import { poolKey } from "./poolKey";
import type { OnchainReading } from "./rows/poolValues";
import { coveredDays, pairPricesFromState, swapBuckets } from "./rows/swapVolume";
import { SWAPS_SOURCE, type PoolSwapRead, type SwapRead } from "./steps/swapLogs";

/** Hourly rows are kept this long (the rolling 24 h needs one day; a week leaves room for late readers). */
export const HOURLY_RETENTION_S = 7 * 86_400;

/** A pool's rolling 24 h volume as this pass computed it. */
export interface PoolVolume24h {
  usd: number;
  /** The pinned block's time, or the older timestamp of a price used. */
  observedAt: number;
}

/**
 * Writes one chain's swap volume inside the pass's transaction: for every pool whose logs were read and that has a
 * price, its swaps added to `pool_volume_hourly` and `pool_volume_daily` (every UTC day the read covered gets a row,
 * 0 when it had no swap), and its `swaps` cursor moved past the last block read (compare and set: a range another
 * pass already wrote is skipped), all in the same transaction, so a range is counted exactly once. Then the rolling 24 h of the pools read up to the pinned block (the hourly buckets
 * that start after `pinned time − 86 400`), and the chain's hourly rows older than a week are pruned.
 *
 * @param db an open transaction.
 * @returns the 24 h volume of each pool read up to the pinned block, by {@link poolKey}.
 */
export async function writeSwapVolume(
  db: Kysely<Database>,
  parameters: { read: SwapRead; onchain: ReadonlyMap<string, OnchainReading>; now: number },
): Promise<Map<string, PoolVolume24h>> {
  const { read, onchain, now } = parameters;
  const { chainId, pinned } = read;
  const volumes = new Map<string, PoolVolume24h>();
  for (const pool of read.pools) {
    const key = poolKey(chainId, pool.address);
    const state = onchain.get(key)?.observation.state;
    const prices = state ? pairPricesFromState(state) : null;
    const buckets = prices ? swapBuckets({ swaps: pool.swaps, prices }) : null;
    if (!prices || !buckets) continue; // not valued this pass: the cursor stays, the logs are read again later
    // Another pass that read the same range and committed first has counted it: this one writes nothing for the pool.
    if (pool.readTo >= pool.from.nextBlock && !(await writePoolVolume(db, { chainId, pool, buckets, now }))) continue;
    if (!pool.reachedPinned) continue;
    const usd = await sumHourlyVolume(db, {
      chainId,
      address: pool.address,
      afterHour: pinned.time - 86_400,
      throughHour: pinned.time,
    });
    volumes.set(key, { usd, observedAt: Math.min(pinned.time, prices.pricedAt ?? pinned.time) });
  }
  await pruneHourlyVolume(db, { chainId, beforeHour: pinned.time - HOURLY_RETENTION_S });
  return volumes;
}

/** One pool's cursor, then (when it moved) its new buckets and the days its read covered. */
async function writePoolVolume(
  db: Kysely<Database>,
  parameters: {
    chainId: number;
    pool: PoolSwapRead;
    buckets: NonNullable<ReturnType<typeof swapBuckets>>;
    now: number;
  },
): Promise<boolean> {
  const { chainId, pool, buckets, now } = parameters;
  const { address } = pool;
  const moved = await advanceLogCursor(db, {
    source: SWAPS_SOURCE,
    chainId,
    from: pool.fromStored ? pool.from.nextBlock : null,
    to: { address, nextBlock: pool.readTo + 1n, lastBlockTime: pool.readToTime },
    now,
  });
  if (!moved) return false;
  for (const [hour, bucket] of buckets.hourly) await addHourlyVolume(db, { chainId, address, hour, ...bucket });
  const days = new Set([
    ...coveredDays({ afterTime: pool.from.lastBlockTime, throughTime: pool.readToTime }),
    ...buckets.daily.keys(),
  ]);
  for (const day of [...days].sort()) {
    await addDailyVolume(db, {
      chainId,
      address,
      day,
      ...(buckets.daily.get(day) ?? { volumeUsd: 0, swaps: 0 }),
      firstBlock: pool.from.nextBlock,
      lastBlock: pool.readTo,
      observedAt: pool.readToTime,
    });
  }
  return true;
}
