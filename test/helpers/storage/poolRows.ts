import type { Kysely } from "kysely";
import type { Database } from "../../../src/storage/schema";

/**
 * Every row of the pools table, every column, ordered by chain then address: what a test compares whole (row times,
 * TVL, the DefiLlama feed's columns), which storage's `listPools` does not hand out (it returns `PoolRecord`s).
 */
export async function listPoolRows(db: Kysely<Database>) {
  return db.selectFrom("pools").selectAll().orderBy("chain_id").orderBy("address").execute();
}
