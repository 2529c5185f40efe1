import type { Kysely } from "kysely";
import { addressesByChain, chunksOf, roundsByKey, rowsByPool } from "./batches";
import type { Database, PoolDaily } from "./schema";

/** The UTC calendar day (`YYYY-MM-DD`) of a Unix time in seconds. */
export function utcDay(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().slice(0, 10);
}

/** Parameters of {@link recordDailyDepth}. */
export interface RecordDailyDepthParameters {
  chainId: number;
  address: string;
  depthUsd: number;
  /** When the depth was observed (the block's timestamp for on-chain reads), Unix seconds. Decides the day. */
  observedAt: number;
  /** Block number of the observation, decimal string, or null when not from a block. */
  block: string | null;
}

/**
 * Folds one depth observation into the pool's row for its UTC day: one row per pool per day keeping the LOWEST
 * depth seen that day, with when and in which block it was seen. One statement (an upsert), so it is atomic.
 */
export async function recordDailyDepth(db: Kysely<Database>, parameters: RecordDailyDepthParameters): Promise<void> {
  await recordDailyDepths(db, [parameters]);
}

/**
 * {@link recordDailyDepth} for many observations in multi-row upserts (chunked; two observations of one pool's day go
 * to successive statements, so each is folded in as it would be alone).
 *
 * @param db an open transaction (the pass's write).
 */
export async function recordDailyDepths(
  db: Kysely<Database>,
  observations: readonly RecordDailyDepthParameters[],
): Promise<void> {
  const rows = observations.map(({ chainId, address, depthUsd, observedAt, block }) => ({
    chain_id: chainId,
    address: address.toLowerCase(),
    day: utcDay(observedAt),
    min_depth_usd: depthUsd,
    min_observed_at: observedAt,
    min_block: block,
    last_observed_at: observedAt,
    samples: 1,
  }));
  for (const round of roundsByKey(rows, (row) => `${row.chain_id}:${row.address}:${row.day}`)) {
    for (const chunk of chunksOf(round, 8)) {
      await db
        .insertInto("pool_daily")
        .values(chunk)
        .onConflict((oc) =>
          oc.columns(["chain_id", "address", "day"]).doUpdateSet((eb) => {
            const lower = eb(eb.ref("excluded.min_depth_usd"), "<", eb.ref("pool_daily.min_depth_usd"));
            return {
              min_depth_usd: eb
                .case()
                .when(lower)
                .then(eb.ref("excluded.min_depth_usd"))
                .else(eb.ref("pool_daily.min_depth_usd"))
                .end(),
              min_observed_at: eb
                .case()
                .when(lower)
                .then(eb.ref("excluded.min_observed_at"))
                .else(eb.ref("pool_daily.min_observed_at"))
                .end(),
              min_block: eb
                .case()
                .when(lower)
                .then(eb.ref("excluded.min_block"))
                .else(eb.ref("pool_daily.min_block"))
                .end(),
              last_observed_at: eb
                .case()
                .when(eb.ref("excluded.last_observed_at"), ">", eb.ref("pool_daily.last_observed_at"))
                .then(eb.ref("excluded.last_observed_at"))
                .else(eb.ref("pool_daily.last_observed_at"))
                .end(),
              samples: eb(eb.ref("pool_daily.samples"), "+", 1),
            };
          }),
        )
        .execute();
    }
  }
}

/** One pool's days to backfill (see {@link backfillDailyDepth}). */
export interface BackfillDailyDepthParameters {
  chainId: number;
  address: string;
  points: { day: string; depthUsd: number; observedAt: number }[];
}

/**
 * Adds history days from a feed (DefiLlama's `/chart`) only where the pool has no row for that day: an on-chain
 * observation is never overwritten. `min_block` stays null, which marks the row as feed-sourced.
 *
 * @returns how many days were added.
 */
export async function backfillDailyDepth(
  db: Kysely<Database>,
  parameters: BackfillDailyDepthParameters,
): Promise<number> {
  return backfillDailyDepths(db, [parameters]);
}

/**
 * {@link backfillDailyDepth} for many pools in multi-row inserts (`ON CONFLICT DO NOTHING`, chunked).
 *
 * @returns how many days were added in all.
 */
export async function backfillDailyDepths(
  db: Kysely<Database>,
  pools: readonly BackfillDailyDepthParameters[],
): Promise<number> {
  const rows = pools.flatMap(({ chainId, address, points }) =>
    points.map((point) => ({
      chain_id: chainId,
      address: address.toLowerCase(),
      day: point.day,
      min_depth_usd: point.depthUsd,
      min_observed_at: point.observedAt,
      min_block: null,
      last_observed_at: point.observedAt,
      samples: 1,
    })),
  );
  let written = 0;
  for (const chunk of chunksOf(rows, 8)) {
    const result = await db
      .insertInto("pool_daily")
      .values(chunk)
      .onConflict((oc) => oc.columns(["chain_id", "address", "day"]).doNothing())
      .executeTakeFirst();
    written += Number(result.numInsertedOrUpdatedRows ?? 0n);
  }
  return written;
}

/** A pool's stored low of one UTC day, as the readers take it. */
export type DailyLow = {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  /** USD: the day's lowest observed depth. */
  lowestDepthUsd: number;
  /** Unix seconds: when that low was observed. */
  observedAt: number;
  /** `observed` (read on chain), or `feed-daily` (backfilled from DefiLlama's daily chart: a row without a block). */
  source: "observed" | "feed-daily";
};

/** {@link getDailyHistory} as {@link DailyLow}s, oldest day first. */
export async function getDailyLows(
  db: Kysely<Database>,
  chainId: number,
  address: string,
  days?: { from: string; to: string },
): Promise<DailyLow[]> {
  return (await getDailyHistory(db, chainId, address, days)).map(toDailyLow);
}

function toDailyLow(row: PoolDaily): DailyLow {
  return {
    day: row.day,
    lowestDepthUsd: Number(row.min_depth_usd),
    observedAt: Number(row.min_observed_at),
    source: row.min_block === null ? "feed-daily" : "observed",
  };
}

/** The pool's daily history, oldest day first: every row, or the UTC days `[from, to]` (`YYYY-MM-DD`, inclusive). */
export async function getDailyHistory(
  db: Kysely<Database>,
  chainId: number,
  address: string,
  days?: { from: string; to: string },
): Promise<PoolDaily[]> {
  let query = db
    .selectFrom("pool_daily")
    .selectAll()
    .where("chain_id", "=", chainId)
    .where("address", "=", address.toLowerCase());
  if (days !== undefined) query = query.where("day", ">=", days.from).where("day", "<=", days.to);
  return query.orderBy("day").execute();
}

/**
 * {@link getDailyHistory} (every row) of many pools: each pool's rows oldest day first, in the order the pools were
 * given (an empty list where a pool has none), one query per chain and chunk.
 */
export async function getDailyHistories(
  db: Kysely<Database>,
  pools: readonly { chainId: number; address: string }[],
): Promise<PoolDaily[][]> {
  const rows: PoolDaily[] = [];
  for (const [chainId, addresses] of addressesByChain(pools)) {
    for (const chunk of chunksOf(addresses, 1)) {
      const query = db
        .selectFrom("pool_daily")
        .selectAll()
        .where("chain_id", "=", chainId)
        .where("address", "in", chunk)
        .orderBy("address")
        .orderBy("day");
      rows.push(...(await query.execute()));
    }
  }
  const byPool = rowsByPool(rows);
  return pools.map((pool) => byPool.get(pool.chainId, pool.address));
}

/** {@link getDailyHistories} as {@link DailyLow}s: each pool's every day, oldest first, in the order given. */
export async function getDailyLowHistories(
  db: Kysely<Database>,
  pools: readonly { chainId: number; address: string }[],
): Promise<DailyLow[][]> {
  return (await getDailyHistories(db, pools)).map((rows) => rows.map(toDailyLow));
}

/**
 * How many days of history each pool has (its `pool_daily` rows), in the order the pools were given: one query per
 * chain and chunk.
 */
export async function countDailyHistoryDays(
  db: Kysely<Database>,
  pools: readonly { chainId: number; address: string }[],
): Promise<number[]> {
  const counts = new Map<string, number>();
  for (const [chainId, addresses] of addressesByChain(pools)) {
    for (const chunk of chunksOf(addresses, 1)) {
      const rows = await db
        .selectFrom("pool_daily")
        .select((eb) => ["address", eb.fn.countAll<number>().as("days")])
        .where("chain_id", "=", chainId)
        .where("address", "in", chunk)
        .groupBy("address")
        .execute();
      for (const row of rows) counts.set(`${chainId}:${row.address}`, Number(row.days));
    }
  }
  return pools.map((pool) => counts.get(`${pool.chainId}:${pool.address.toLowerCase()}`) ?? 0);
}

/**
 * The pool's daily lows observed inside `[from, to]` (by the time each low was observed), oldest first: the evidence
 * window of a claim.
 */
export async function getDailyLowsBetween(
  db: Kysely<Database>,
  parameters: { chainId: number; address: string; from: number; to: number },
): Promise<DailyLow[]> {
  const rows = await db
    .selectFrom("pool_daily")
    .selectAll()
    .where("chain_id", "=", parameters.chainId)
    .where("address", "=", parameters.address.toLowerCase())
    .where("min_observed_at", ">=", parameters.from)
    .where("min_observed_at", "<=", parameters.to)
    .orderBy("day")
    .execute();
  return rows.map(toDailyLow);
}

/**
 * Per pool of one protocol and kind: how many days of history it has in `[fromDay, toDay]` (UTC days, inclusive) and
 * the lowest daily depth among them. Pools without a row in the range are absent.
 */
export async function summarizeDailyLows(
  db: Kysely<Database>,
  parameters: { fromDay: string; toDay: string; protocol: string; kind: "amm" | "lending" },
): Promise<{ chainId: number; address: string; days: number; lowestDepthUsd: number }[]> {
  const rows = await db
    // CROSS JOIN + WHERE: SQLite keeps this order (the protocol's pools first, then each pool's primary-key range of
    // days); PostgreSQL plans it as the inner join it is.
    .selectFrom("pools as p")
    .crossJoin("pool_daily as d")
    .whereRef("d.chain_id", "=", "p.chain_id")
    .whereRef("d.address", "=", "p.address")
    .select((eb) => [
      "d.chain_id",
      "d.address",
      eb.fn.countAll<number>().as("days"),
      eb.fn.min("d.min_depth_usd").as("lowest"),
    ])
    .where("p.protocol", "=", parameters.protocol)
    .where("p.kind", "=", parameters.kind)
    .where("d.day", ">=", parameters.fromDay)
    .where("d.day", "<=", parameters.toDay)
    .groupBy(["d.chain_id", "d.address"])
    .execute();
  return rows.map((row) => ({
    chainId: Number(row.chain_id),
    address: row.address,
    days: Number(row.days),
    lowestDepthUsd: Number(row.lowest),
  }));
}
