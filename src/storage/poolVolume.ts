import type { Kysely } from "kysely";
import type { Database, PoolVolumeDay, PoolVolumeHour } from "./schema";

/** Swaps of one pool in one bucket (an hour or a day) and their USD volume. */
export interface VolumeBucket {
  volumeUsd: number;
  swaps: number;
}

/**
 * Adds swaps to a pool's UTC hour (`hour` = the hour's start, Unix seconds), creating the row when needed.
 *
 * @param db an open transaction (the one that moves the pool's `swaps` cursor).
 */
export async function addHourlyVolume(
  db: Kysely<Database>,
  parameters: { chainId: number; address: string; hour: number } & VolumeBucket,
): Promise<void> {
  const { chainId, hour, volumeUsd, swaps } = parameters;
  await db
    .insertInto("pool_volume_hourly")
    .values({ chain_id: chainId, address: parameters.address.toLowerCase(), hour, volume_usd: volumeUsd, swaps })
    .onConflict((oc) =>
      oc.columns(["chain_id", "address", "hour"]).doUpdateSet((eb) => ({
        volume_usd: eb(eb.ref("pool_volume_hourly.volume_usd"), "+", eb.ref("excluded.volume_usd")),
        swaps: eb(eb.ref("pool_volume_hourly.swaps"), "+", eb.ref("excluded.swaps")),
      })),
    )
    .execute();
}

/**
 * Adds swaps (possibly none: the day was read and had no swap) to a pool's UTC day. A new row takes `firstBlock`;
 * every call moves `last_block` and `observed_at` on.
 *
 * @param db an open transaction (the one that moves the pool's `swaps` cursor).
 */
export async function addDailyVolume(
  db: Kysely<Database>,
  parameters: {
    chainId: number;
    address: string;
    /** `YYYY-MM-DD`, UTC. */
    day: string;
    firstBlock: bigint;
    lastBlock: bigint;
    /** Timestamp of `lastBlock`, Unix seconds. */
    observedAt: number;
  } & VolumeBucket,
): Promise<void> {
  const { chainId, day, volumeUsd, swaps, observedAt } = parameters;
  await db
    .insertInto("pool_volume_daily")
    .values({
      chain_id: chainId,
      address: parameters.address.toLowerCase(),
      day,
      volume_usd: volumeUsd,
      swaps,
      first_block: parameters.firstBlock.toString(),
      last_block: parameters.lastBlock.toString(),
      observed_at: observedAt,
    })
    .onConflict((oc) =>
      oc.columns(["chain_id", "address", "day"]).doUpdateSet((eb) => ({
        volume_usd: eb(eb.ref("pool_volume_daily.volume_usd"), "+", eb.ref("excluded.volume_usd")),
        swaps: eb(eb.ref("pool_volume_daily.swaps"), "+", eb.ref("excluded.swaps")),
        last_block: eb.ref("excluded.last_block"),
        observed_at: eb.ref("excluded.observed_at"),
      })),
    )
    .execute();
}

/**
 * A pool's USD volume in the hourly buckets that start after `afterHour` and at or before `throughHour` (the rolling
 * 24 h: `afterHour` = block time − 86 400). 0 when there is none.
 */
export async function sumHourlyVolume(
  db: Kysely<Database>,
  parameters: { chainId: number; address: string; afterHour: number; throughHour: number },
): Promise<number> {
  const row = await db
    .selectFrom("pool_volume_hourly")
    .select((eb) => eb.fn.sum<number | null>("volume_usd").as("total"))
    .where("chain_id", "=", parameters.chainId)
    .where("address", "=", parameters.address.toLowerCase())
    .where("hour", ">", parameters.afterHour)
    .where("hour", "<=", parameters.throughHour)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** Deletes a chain's hourly rows that start before `beforeHour`; returns how many. */
export async function pruneHourlyVolume(
  db: Kysely<Database>,
  parameters: { chainId: number; beforeHour: number },
): Promise<number> {
  const result = await db
    .deleteFrom("pool_volume_hourly")
    .where("chain_id", "=", parameters.chainId)
    .where("hour", "<", parameters.beforeHour)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Daily volume rows (every pool, or one chain / one pool) from `fromDay` to `toDay` inclusive, by day then chain
 * then address.
 */
export async function listDailyVolume(
  db: Kysely<Database>,
  parameters: { fromDay: string; toDay: string; chainId?: number; address?: string },
): Promise<PoolVolumeDay[]> {
  let query = db
    .selectFrom("pool_volume_daily")
    .selectAll()
    .where("day", ">=", parameters.fromDay)
    .where("day", "<=", parameters.toDay);
  if (parameters.chainId !== undefined) query = query.where("chain_id", "=", parameters.chainId);
  if (parameters.address !== undefined) query = query.where("address", "=", parameters.address.toLowerCase());
  return query.orderBy("day").orderBy("chain_id").orderBy("address").execute();
}

/** One pool's hourly rows, oldest first. */
export async function listHourlyVolume(
  db: Kysely<Database>,
  parameters: { chainId: number; address: string },
): Promise<PoolVolumeHour[]> {
  return db
    .selectFrom("pool_volume_hourly")
    .selectAll()
    .where("chain_id", "=", parameters.chainId)
    .where("address", "=", parameters.address.toLowerCase())
    .orderBy("hour")
    .execute();
}

/**
 * Daily volume summed per venue (the pool's `protocol`), chain and UTC day over `[fromDay, toDay]` (inclusive), for
 * the pools whose `volume_observed_at` is at or after `observedSince` (the fresh ones): the market read API's totals.
 * `pools` counts the rows summed; `observedAt` is the OLDEST row's `observed_at`, so the group's day is complete
 * when it is at or after the next UTC midnight.
 */
export async function sumFreshVolumeByVenueChainDay(
  db: Kysely<Database>,
  parameters: { fromDay: string; toDay: string; observedSince: number },
): Promise<{ venue: string; chainId: number; day: string; volumeUsd: number; pools: number; observedAt: number }[]> {
  const rows = await db
    // CROSS JOIN + WHERE: SQLite keeps this order (the pools first, then each pool's primary-key range of days, with or
    // without ANALYZE statistics); PostgreSQL plans it as the inner join it is.
    .selectFrom("pools as p")
    .crossJoin("pool_volume_daily as v")
    .whereRef("v.chain_id", "=", "p.chain_id")
    .whereRef("v.address", "=", "p.address")
    .select((eb) => [
      "p.protocol",
      "v.chain_id",
      "v.day",
      eb.fn.sum<number>("v.volume_usd").as("volume_usd"),
      eb.fn.countAll<number>().as("pools"),
      eb.fn.min("v.observed_at").as("observed_at"),
    ])
    .where("v.day", ">=", parameters.fromDay)
    .where("v.day", "<=", parameters.toDay)
    .where("p.volume_observed_at", ">=", parameters.observedSince)
    .groupBy(["p.protocol", "v.chain_id", "v.day"])
    .execute();
  return rows.map((row) => ({
    venue: row.protocol,
    chainId: Number(row.chain_id),
    day: row.day,
    volumeUsd: Number(row.volume_usd),
    pools: Number(row.pools),
    observedAt: Number(row.observed_at),
  }));
}

/**
 * Daily volume summed per pool over `[fromDay, toDay]` (inclusive) for the pools whose `volume_observed_at` is before
 * `observedBefore` or was never set (the stale ones): what the market read API holds out of its totals.
 */
export async function sumVolumeByPool(
  db: Kysely<Database>,
  parameters: { fromDay: string; toDay: string; observedBefore: number },
): Promise<{ chainId: number; address: string; volumeUsd: number; days: number }[]> {
  const rows = await db
    // CROSS JOIN + WHERE: SQLite keeps this order (the pools first, then each pool's primary-key range of days, with or
    // without ANALYZE statistics); PostgreSQL plans it as the inner join it is.
    .selectFrom("pools as p")
    .crossJoin("pool_volume_daily as v")
    .whereRef("v.chain_id", "=", "p.chain_id")
    .whereRef("v.address", "=", "p.address")
    .select((eb) => [
      "v.chain_id",
      "v.address",
      eb.fn.sum<number>("v.volume_usd").as("volume_usd"),
      eb.fn.countAll<number>().as("days"),
    ])
    .where("v.day", ">=", parameters.fromDay)
    .where("v.day", "<=", parameters.toDay)
    .where((eb) =>
      eb.or([eb("p.volume_observed_at", "<", parameters.observedBefore), eb("p.volume_observed_at", "is", null)]),
    )
    .groupBy(["v.chain_id", "v.address"])
    .execute();
  return rows.map((row) => ({
    chainId: Number(row.chain_id),
    address: row.address,
    volumeUsd: Number(row.volume_usd),
    days: Number(row.days),
  }));
}
