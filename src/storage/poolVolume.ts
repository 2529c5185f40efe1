import type { Kysely } from "kysely";
import { chunksOf, roundsByKey } from "./batches";
import type { Database, PoolVolumeDay, PoolVolumeHour } from "./schema";

/** Swaps of one pool in one bucket (an hour or a day) and their USD volume. */
export interface VolumeBucket {
  volumeUsd: number;
  swaps: number;
}

/** Swaps to add to one pool's UTC hour (`hour` = the hour's start, Unix seconds). */
export type HourlyVolumeRow = { chainId: number; address: string; hour: number } & VolumeBucket;

/**
 * Adds swaps to pools' UTC hours, creating the rows when needed: multi-row upserts (chunked; a repeated pool hour goes
 * to a later statement, so it adds up as it would alone).
 *
 * @param db an open transaction (the one that moves the pools' `swaps` cursors).
 */
export async function addHourlyVolumes(db: Kysely<Database>, rows: readonly HourlyVolumeRow[]): Promise<void> {
  const values = rows.map(({ chainId, address, hour, volumeUsd, swaps }) => ({
    chain_id: chainId,
    address: address.toLowerCase(),
    hour,
    volume_usd: volumeUsd,
    swaps,
  }));
  for (const round of roundsByKey(values, (row) => `${row.chain_id}:${row.address}:${row.hour}`)) {
    for (const chunk of chunksOf(round, 5)) {
      await db
        .insertInto("pool_volume_hourly")
        .values(chunk)
        .onConflict((oc) =>
          oc.columns(["chain_id", "address", "hour"]).doUpdateSet((eb) => ({
            volume_usd: eb(eb.ref("pool_volume_hourly.volume_usd"), "+", eb.ref("excluded.volume_usd")),
            swaps: eb(eb.ref("pool_volume_hourly.swaps"), "+", eb.ref("excluded.swaps")),
          })),
        )
        .execute();
    }
  }
}

/** Swaps (possibly none: the day was read and had no swap) to add to one pool's UTC day. */
export type DailyVolumeRow = {
  chainId: number;
  address: string;
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  firstBlock: bigint;
  lastBlock: bigint;
  /** Timestamp of `lastBlock`, Unix seconds. */
  observedAt: number;
} & VolumeBucket;

/**
 * Adds swaps to pools' UTC days. A new row takes `firstBlock`; every addition moves `last_block` and `observed_at`
 * on. Multi-row upserts, chunked; a repeated pool day goes to a later statement.
 *
 * @param db an open transaction (the one that moves the pools' `swaps` cursors).
 */
export async function addDailyVolumes(db: Kysely<Database>, rows: readonly DailyVolumeRow[]): Promise<void> {
  const values = rows.map((row) => ({
    chain_id: row.chainId,
    address: row.address.toLowerCase(),
    day: row.day,
    volume_usd: row.volumeUsd,
    swaps: row.swaps,
    first_block: row.firstBlock.toString(),
    last_block: row.lastBlock.toString(),
    observed_at: row.observedAt,
  }));
  for (const round of roundsByKey(values, (row) => `${row.chain_id}:${row.address}:${row.day}`)) {
    for (const chunk of chunksOf(round, 8)) {
      await db
        .insertInto("pool_volume_daily")
        .values(chunk)
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
  }
}

/**
 * Pools' USD volume in the hourly buckets that start after `afterHour` and at or before `throughHour` (the rolling
 * 24 h: `afterHour` = block time − 86 400), in the order the addresses were given (0 where there is none): one
 * query per chunk, summed per pool.
 */
export async function sumHourlyVolumes(
  db: Kysely<Database>,
  parameters: { chainId: number; addresses: readonly string[]; afterHour: number; throughHour: number },
): Promise<number[]> {
  const totals = new Map<string, number>();
  const addresses = [...new Set(parameters.addresses.map((address) => address.toLowerCase()))];
  for (const chunk of chunksOf(addresses, 1)) {
    const rows = await db
      .selectFrom("pool_volume_hourly")
      .select((eb) => ["address", eb.fn.sum<number | null>("volume_usd").as("total")])
      .where("chain_id", "=", parameters.chainId)
      .where("address", "in", chunk)
      .where("hour", ">", parameters.afterHour)
      .where("hour", "<=", parameters.throughHour)
      .groupBy("address")
      .execute();
    for (const row of rows) totals.set(row.address, Number(row.total ?? 0));
  }
  return parameters.addresses.map((address) => totals.get(address.toLowerCase()) ?? 0);
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

/** A pool's swap volume of one UTC day, as the readers take it. */
export type DailyVolume = {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  /** USD: the volume of the pool's own `Swap` logs read into that day (0 for a day read without a swap). */
  volumeUsd: number;
};

/** {@link listDailyVolume} of one pool as {@link DailyVolume}s, oldest day first. */
export async function getDailyVolumes(
  db: Kysely<Database>,
  parameters: { fromDay: string; toDay: string; chainId: number; address: string },
): Promise<DailyVolume[]> {
  return (await listDailyVolume(db, parameters)).map((row) => ({ day: row.day, volumeUsd: Number(row.volume_usd) }));
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

/**
 * Each pool's earliest daily row on or after `fromDay` (its day and the first block its count started from): where
 * a recount after a reorganisation starts, so that the rows it replaces are counted again from their beginning.
 * Pools without such a row are absent.
 */
export async function firstVolumeDaysFrom(
  db: Kysely<Database>,
  parameters: { chainId: number; addresses: readonly string[]; fromDay: string },
): Promise<Map<string, { day: string; firstBlock: bigint }>> {
  const first = new Map<string, { day: string; firstBlock: bigint }>();
  const addresses = [...new Set(parameters.addresses.map((address) => address.toLowerCase()))];
  for (const chunk of chunksOf(addresses, 1)) {
    const rows = await db
      .selectFrom("pool_volume_daily")
      .select(["address", "day", "first_block"])
      .where("chain_id", "=", parameters.chainId)
      .where("address", "in", chunk)
      .where("day", ">=", parameters.fromDay)
      .orderBy("address")
      .orderBy("day")
      .execute();
    for (const row of rows)
      if (!first.has(row.address)) first.set(row.address, { day: row.day, firstBlock: BigInt(row.first_block) });
  }
  return first;
}

/**
 * Deletes pools' volume from a UTC day on (their daily rows from `fromDay`, their hourly rows from that day's
 * midnight): what a recount after a reorganisation replaces, in the transaction that writes the recount.
 *
 * @param db an open transaction (the one that moves the pools' `swaps` cursors).
 */
export async function deleteVolumeFrom(
  db: Kysely<Database>,
  parameters: { chainId: number; pools: readonly { address: string; fromDay: string }[] },
): Promise<void> {
  for (const { address, fromDay } of parameters.pools) {
    const lower = address.toLowerCase();
    const midnight = Date.parse(`${fromDay}T00:00:00Z`) / 1000;
    await db
      .deleteFrom("pool_volume_hourly")
      .where("chain_id", "=", parameters.chainId)
      .where("address", "=", lower)
      .where("hour", ">=", midnight)
      .execute();
    await db
      .deleteFrom("pool_volume_daily")
      .where("chain_id", "=", parameters.chainId)
      .where("address", "=", lower)
      .where("day", ">=", fromDay)
      .execute();
  }
}
