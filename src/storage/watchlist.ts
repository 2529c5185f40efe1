import type { Kysely } from "kysely";
import type { Database } from "./schema";

/** A wallet's watchlist (`watchlist`): the pools it starred, by owner (the lower-case address). */

/** Stars a pool for `owner`; starring it again changes nothing. */
export async function watchPool(
  db: Kysely<Database>,
  entry: { owner: string; chainId: number; address: string; now: number },
): Promise<void> {
  await db
    .insertInto("watchlist")
    .values({
      owner: entry.owner.toLowerCase(),
      chain_id: entry.chainId,
      address: entry.address.toLowerCase(),
      created_at: entry.now,
    })
    .onConflict((oc) => oc.columns(["owner", "chain_id", "address"]).doNothing())
    .execute();
}

/** Removes a pool from `owner`'s watchlist (nothing happens when it is not on it). */
export async function unwatchPool(
  db: Kysely<Database>,
  entry: { owner: string; chainId: number; address: string },
): Promise<void> {
  await db
    .deleteFrom("watchlist")
    .where("owner", "=", entry.owner.toLowerCase())
    .where("chain_id", "=", entry.chainId)
    .where("address", "=", entry.address.toLowerCase())
    .execute();
}

/** `owner`'s starred pools, oldest first. */
export async function listWatchlist(
  db: Kysely<Database>,
  owner: string,
): Promise<{ chain_id: number; address: string; created_at: number }[]> {
  return db
    .selectFrom("watchlist")
    .select(["chain_id", "address", "created_at"])
    .where("owner", "=", owner.toLowerCase())
    .orderBy("created_at")
    .orderBy("chain_id")
    .orderBy("address")
    .execute();
}
