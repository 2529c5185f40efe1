import type { Kysely } from "kysely";
import { advanceLogCursors } from "../storage/logCursors";
import {
  addDailyVolumes,
  addHourlyVolumes,
  deleteVolumeFrom,
  pruneHourlyVolume,
  sumHourlyVolumes,
  type DailyVolumeRow,
  type HourlyVolumeRow,
} from "../storage/poolVolume";
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
 * 0 when it had no swap), and its `swaps` cursor moved past the last block read with that block's hash (compare and
 * set: a range another pass already wrote is skipped), all in the same transaction, so a range is counted exactly
 * once. A pool recounted after a reorganisation (`replacing`) has its rows from the first replaced day deleted first,
 * in the same transaction: the recount replaces them. Then the rolling
 * 24 h of the pools read up to the pinned block (the hourly buckets that start after `pinned time − 86 400`), and the
 * chain's hourly rows older than a week are pruned. A few statements per chain whatever its number of pools: the
 * cursors, the hours, the days and the 24 h sums each go in batched statements.
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
  const valued = read.pools.flatMap((pool) => {
    const state = onchain.get(poolKey(chainId, pool.address))?.observation.state;
    const prices = state ? pairPricesFromState(state) : null;
    const buckets = prices ? swapBuckets({ swaps: pool.swaps, prices }) : null;
    // Not valued this pass: the cursor stays, the logs are read again later.
    return prices && buckets ? [{ pool, prices, buckets }] : [];
  });
  const toWrite = valued.filter(({ pool }) => pool.readTo >= pool.from.nextBlock);
  const moved = await writePoolVolumes(db, { chainId, pools: toWrite, now });
  // Another pass that read the same range and committed first has counted it: this one writes nothing for the pool.
  const counted = valued.filter((entry) => !toWrite.includes(entry) || moved.has(entry));
  const reached = counted.filter(({ pool }) => pool.reachedPinned);
  const sums = await sumHourlyVolumes(db, {
    chainId,
    addresses: reached.map(({ pool }) => pool.address),
    afterHour: pinned.time - 86_400,
    throughHour: pinned.time,
  });
  const volumes = new Map<string, PoolVolume24h>();
  reached.forEach(({ pool, prices }, i) => {
    const observedAt = Math.min(pinned.time, prices.pricedAt ?? pinned.time);
    volumes.set(poolKey(chainId, pool.address), { usd: sums[i], observedAt });
  });
  await pruneHourlyVolume(db, { chainId, beforeHour: pinned.time - HOURLY_RETENTION_S });
  return volumes;
}

/** A pool whose swaps this pass can value, with its buckets. */
type ValuedPool = { pool: PoolSwapRead; buckets: NonNullable<ReturnType<typeof swapBuckets>> };

/** The pools' cursors, then (for those that moved) their new buckets and the days their reads covered. */
async function writePoolVolumes<T extends ValuedPool>(
  db: Kysely<Database>,
  parameters: { chainId: number; pools: readonly T[]; now: number },
): Promise<Set<T>> {
  const { chainId, pools, now } = parameters;
  const advanced = await advanceLogCursors(db, {
    source: SWAPS_SOURCE,
    chainId,
    moves: pools.map(({ pool }) => ({
      from: pool.replacing?.storedNextBlock ?? (pool.fromStored ? pool.from.nextBlock : null),
      to: {
        address: pool.address,
        nextBlock: pool.readTo + 1n,
        lastBlockTime: pool.readToTime,
        blockHash: pool.readToHash ?? null,
      },
    })),
    now,
  });
  const moved = pools.filter((_, i) => advanced[i]);
  // A recount after a reorganisation replaces the pool's counts from its first replaced day: never added to them.
  await deleteVolumeFrom(db, {
    chainId,
    pools: moved.flatMap(({ pool }) =>
      pool.replacing ? [{ address: pool.address, fromDay: pool.replacing.fromDay }] : [],
    ),
  });
  const hourly: HourlyVolumeRow[] = [];
  const daily: DailyVolumeRow[] = [];
  for (const { pool, buckets } of moved) {
    const { address } = pool;
    for (const [hour, bucket] of buckets.hourly) hourly.push({ chainId, address, hour, ...bucket });
    const days = new Set([
      ...coveredDays({ afterTime: pool.from.lastBlockTime, throughTime: pool.readToTime }),
      ...buckets.daily.keys(),
    ]);
    for (const day of [...days].sort()) {
      daily.push({
        chainId,
        address,
        day,
        ...(buckets.daily.get(day) ?? { volumeUsd: 0, swaps: 0 }),
        firstBlock: pool.from.nextBlock,
        lastBlock: pool.readTo,
        observedAt: pool.readToTime,
      });
    }
  }
  await addHourlyVolumes(db, hourly);
  await addDailyVolumes(db, daily);
  return new Set(moved);
}
