import type { Kysely } from "kysely";
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
  const { chainId, kind, symbol, protocol, now } = parameters;
  const address = parameters.address.toLowerCase();
  const given: PoolValues = { kind, symbol, protocol };
  for (const [key, value] of Object.entries(parameters.values)) {
    if (value !== undefined) (given as Record<string, unknown>)[key] = value;
  }
  await db
    .insertInto("pools")
    .values({ ...given, kind, symbol, protocol, chain_id: chainId, address, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(["chain_id", "address"]).doUpdateSet({ ...given, updated_at: now }))
    .execute();
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

/** Every tracked pool, ordered by chain then address. */
export async function listPools(db: Kysely<Database>): Promise<Pool[]> {
  return db.selectFrom("pools").selectAll().orderBy("chain_id").orderBy("address").execute();
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

/**
 * Records issuance's verdict on a pool: why no attestation could be issued (null when one was issued or kept) and
 * when that was checked. Updates an existing row only.
 *
 * @param db the store's Kysely instance or an open transaction.
 */
export async function setIssueVerdict(
  db: Kysely<Database>,
  parameters: { chainId: number; address: string; reason: string | null; checkedAt: number },
): Promise<void> {
  await db
    .updateTable("pools")
    .set({ issue_reason: parameters.reason, issue_checked_at: parameters.checkedAt })
    .where("chain_id", "=", parameters.chainId)
    .where("address", "=", parameters.address.toLowerCase())
    .execute();
}

/** The tracked pools of one protocol and kind (e.g. a lending market's reserves), ordered by chain then address. */
export async function listPoolsOf(
  db: Kysely<Database>,
  parameters: { protocol: string; kind: "amm" | "lending" },
): Promise<Pool[]> {
  return db
    .selectFrom("pools")
    .selectAll()
    .where("protocol", "=", parameters.protocol)
    .where("kind", "=", parameters.kind)
    .orderBy("chain_id")
    .orderBy("address")
    .execute();
}
