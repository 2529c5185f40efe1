import type { Kysely } from "kysely";
import { addressesByChain, chunksOf, excludedOf, rowsByPool } from "./batches";
import type { Database, NewPool, Pool } from "./schema";

/** The measured and configured columns of a pool row; every one optional. */
export type PoolValues = Partial<Omit<NewPool, "chain_id" | "address" | "created_at" | "updated_at">>;

/** Parameters of {@link upsertPool}. */
export interface UpsertPoolParameters {
  chainId: number;
  address: string;
  /** Needed to create the row; on an existing row they update it like any other value. */
  kind: "amm" | "lending";
  symbol: string;
  protocol: string;
  /** Only keys whose value is not `undefined` are written: a source that failed passes nothing and blanks nothing. */
  values: PoolValues;
  now: number;
}

/**
 * Inserts a pool or updates ONLY the columns given in `values` (plus `updated_at`). Never writes a column the caller
 * has no value for, so a missed or failed source leaves the last observed value (and its observed time) in place.
 *
 * @param db the store's Kysely instance or an open transaction.
 * @param parameters {@link UpsertPoolParameters}
 */
export async function upsertPool(db: Kysely<Database>, parameters: UpsertPoolParameters): Promise<void> {
  await upsertPools(db, [parameters]);
}

/**
 * {@link upsertPool} for many pools in a few statements: the pools that give the same columns share multi-row
 * upserts (chunked under the parameter limit), so the cost is one statement per column set and chunk, not per pool.
 *
 * @param db the store's Kysely instance or an open transaction.
 * @throws RangeError when a pool is listed twice (one statement cannot update a row twice).
 */
export async function upsertPools(db: Kysely<Database>, pools: readonly UpsertPoolParameters[]): Promise<void> {
  const groups = new Map<string, NewPool[]>();
  const seen = new Set<string>();
  for (const parameters of pools) {
    const { chainId, kind, symbol, protocol, now } = parameters;
    const address = parameters.address.toLowerCase();
    if (seen.has(`${chainId}:${address}`)) throw new RangeError(`upsertPools: pool ${chainId}:${address} listed twice`);
    seen.add(`${chainId}:${address}`);
    const given: PoolValues = { kind, symbol, protocol };
    for (const [key, value] of Object.entries(parameters.values)) {
      if (value !== undefined) (given as Record<string, unknown>)[key] = value;
    }
    const row: NewPool = {
      ...given,
      kind,
      symbol,
      protocol,
      chain_id: chainId,
      address,
      created_at: now,
      updated_at: now,
    };
    const shape = Object.keys(given).sort().join(",");
    groups.set(shape, [...(groups.get(shape) ?? []), row]);
  }
  for (const [shape, rows] of groups) {
    const columns = shape.split(",") as (keyof PoolValues)[];
    for (const chunk of chunksOf(rows, columns.length + 4)) {
      await db
        .insertInto("pools")
        .values(chunk)
        .onConflict((oc) => oc.columns(["chain_id", "address"]).doUpdateSet(excludedOf([...columns, "updated_at"])))
        .execute();
    }
  }
}

/** Reads one pool by (chainId, address), address any case. */
export async function getPool(db: Kysely<Database>, chainId: number, address: string): Promise<Pool | undefined> {
  return db
    .selectFrom("pools")
    .selectAll()
    .where("chain_id", "=", chainId)
    .where("address", "=", address.toLowerCase())
    .executeTakeFirst();
}

/**
 * {@link getPool} for many pools as {@link PoolRecord}s: in the order given (undefined where a pool has no row), one
 * query per chain and chunk.
 */
export async function getPools(
  db: Kysely<Database>,
  pools: readonly { chainId: number; address: string }[],
): Promise<(PoolRecord | undefined)[]> {
  const rows: Pool[] = [];
  for (const [chainId, addresses] of addressesByChain(pools)) {
    for (const chunk of chunksOf(addresses, 1)) {
      rows.push(
        ...(await db
          .selectFrom("pools")
          .selectAll()
          .where("chain_id", "=", chainId)
          .where("address", "in", chunk)
          .execute()),
      );
    }
  }
  const byPool = rowsByPool(rows);
  return pools.map((pool) => {
    const row = byPool.get(pool.chainId, pool.address)[0];
    return row === undefined ? undefined : toPoolRecord(row);
  });
}

/** Every tracked pool as a {@link PoolRecord}, ordered by chain then address. */
export async function listPools(db: Kysely<Database>): Promise<PoolRecord[]> {
  const rows = await db.selectFrom("pools").selectAll().orderBy("chain_id").orderBy("address").execute();
  return rows.map(toPoolRecord);
}

/**
 * A tracked pool as the readers take it: camelCase, every stored number a number (null kept: not measured), each
 * measured value beside the time it was observed (Unix seconds). The pass's write reads it too (depth block, freshness
 * state, feed time); the columns nobody reads back (DefiLlama id, TVL, issue check time, row times) are left out.
 */
export type PoolRecord = {
  chainId: number;
  /** As stored (lower case). */
  address: string;
  kind: "amm" | "lending";
  symbol: string;
  protocol: string;
  /** Merkl opportunity identifier, if the pools file maps one. */
  merklId: string | null;
  /** USD; lending: supplied − borrowed. */
  depthUsd: number | null;
  depthObservedAt: number | null;
  /** The block of the stored depth (decimal text, as stored), or null. */
  depthBlock: string | null;
  /** USD, lending only (exact there). */
  exitableUsd: number | null;
  exitableObservedAt: number | null;
  /** The raw on-chain state as JSON text (reserves, supplied, borrowed, rates…), as stored. */
  stateJson: string | null;
  /** A percent (3.2 means 3.2 %). */
  supplyRatePercent: number | null;
  supplyRateObservedAt: number | null;
  /** The yields feed's `apy` and its split, percent. */
  apyPercent: number | null;
  apyBasePercent: number | null;
  apyRewardPercent: number | null;
  apyObservedAt: number | null;
  /** USD, AMM only: the rolling 24 h of the pool's own swaps. */
  volume24hUsd: number | null;
  volumeObservedAt: number | null;
  /** When the DefiLlama yields feed last listed the pool, or null. */
  feedObservedAt: number | null;
  /** Why the last issuance check issued nothing, or null. */
  issueReason: string | null;
  /** The freshness the last pass found (null: never written by a pass). */
  freshnessState: "fresh" | "stale" | null;
};

/** {@link getPool} as a {@link PoolRecord}. */
export async function getPoolRecord(
  db: Kysely<Database>,
  chainId: number,
  address: string,
): Promise<PoolRecord | undefined> {
  const row = await getPool(db, chainId, address);
  return row === undefined ? undefined : toPoolRecord(row);
}

/** A stored number column as a number, null kept (PostgreSQL may hand back numeric text). */
function numberOrNull(value: number | string | null | undefined): number | null {
  return value === null || value === undefined ? null : Number(value);
}

function toPoolRecord(row: Pool): PoolRecord {
  return {
    chainId: Number(row.chain_id),
    address: row.address,
    kind: row.kind,
    symbol: row.symbol,
    protocol: row.protocol,
    merklId: row.merkl_id,
    depthUsd: numberOrNull(row.depth_usd),
    depthObservedAt: numberOrNull(row.depth_observed_at),
    depthBlock: row.depth_block,
    exitableUsd: numberOrNull(row.exitable_usd),
    exitableObservedAt: numberOrNull(row.exitable_observed_at),
    stateJson: row.state_json,
    supplyRatePercent: numberOrNull(row.supply_rate_percent),
    supplyRateObservedAt: numberOrNull(row.supply_rate_observed_at),
    apyPercent: numberOrNull(row.apy_percent),
    apyBasePercent: numberOrNull(row.apy_base_percent),
    apyRewardPercent: numberOrNull(row.apy_reward_percent),
    apyObservedAt: numberOrNull(row.apy_observed_at),
    volume24hUsd: numberOrNull(row.volume_24h_usd),
    volumeObservedAt: numberOrNull(row.volume_observed_at),
    feedObservedAt: numberOrNull(row.feed_observed_at),
    issueReason: row.issue_reason,
    freshnessState: row.freshness_state,
  };
}

/** Every stored pool's depth (USD, null when never measured), unordered: one query. */
export async function listPoolDepths(
  db: Kysely<Database>,
): Promise<{ chainId: number; address: string; depthUsd: number | null }[]> {
  const rows = await db.selectFrom("pools").select(["chain_id", "address", "depth_usd"]).execute();
  return rows.map((row) => ({
    chainId: Number(row.chain_id),
    address: row.address,
    depthUsd: numberOrNull(row.depth_usd),
  }));
}

/** The chains on which an address is tracked, ascending (a bare address names one pool only when there is one). */
export async function findPoolChains(db: Kysely<Database>, address: string): Promise<number[]> {
  const rows = await db
    .selectFrom("pools")
    .select("chain_id")
    .where("address", "=", address.toLowerCase())
    .orderBy("chain_id")
    .execute();
  return rows.map((row) => Number(row.chain_id));
}

/** How many pools are tracked. */
export async function countPools(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("pools")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One pool's issuance verdict: why no attestation could be issued (null when one was issued or kept), and when. */
export interface IssueVerdict {
  chainId: number;
  address: string;
  reason: string | null;
  checkedAt: number;
}

/**
 * Records issuance's verdict on a pool: why no attestation could be issued (null when one was issued or kept) and
 * when that was checked. Updates an existing row only.
 *
 * @param db the store's Kysely instance or an open transaction.
 */
export async function setIssueVerdict(db: Kysely<Database>, parameters: IssueVerdict): Promise<void> {
  await setIssueVerdicts(db, [parameters]);
}

/**
 * {@link setIssueVerdict} for many pools: one `UPDATE … SET issue_reason = CASE address …` per chain, check time and
 * chunk. A pool listed twice takes its last verdict.
 *
 * @param db the store's Kysely instance or an open transaction.
 */
export async function setIssueVerdicts(db: Kysely<Database>, verdicts: readonly IssueVerdict[]): Promise<void> {
  const groups = new Map<string, Map<string, string | null>>();
  for (const { chainId, address, reason, checkedAt } of verdicts) {
    const group = groups.get(`${chainId}:${checkedAt}`) ?? new Map<string, string | null>();
    group.set(address.toLowerCase(), reason);
    groups.set(`${chainId}:${checkedAt}`, group);
  }
  for (const [key, group] of groups) {
    const [chainId, checkedAt] = key.split(":").map(Number);
    for (const chunk of chunksOf([...group], 3)) {
      await db
        .updateTable("pools")
        .set((eb) => {
          let reason = eb.case("address").when(chunk[0][0]).then(chunk[0][1]);
          for (const [address, value] of chunk.slice(1)) reason = reason.when(address).then(value);
          return { issue_reason: reason.else(eb.ref("issue_reason")).end(), issue_checked_at: checkedAt };
        })
        .where("chain_id", "=", chainId)
        .where(
          "address",
          "in",
          chunk.map(([address]) => address),
        )
        .execute();
    }
  }
}

/** The tracked pools of one protocol and kind (e.g. a lending market's reserves), ordered by chain then address. */
export async function listPoolsOf(
  db: Kysely<Database>,
  parameters: { protocol: string; kind: "amm" | "lending" },
): Promise<PoolRecord[]> {
  const rows = await db
    .selectFrom("pools")
    .selectAll()
    .where("protocol", "=", parameters.protocol)
    .where("kind", "=", parameters.kind)
    .orderBy("chain_id")
    .orderBy("address")
    .execute();
  return rows.map(toPoolRecord);
}
