import type { Kysely } from "kysely";
import type { Database } from "./schema";

/** Where one log reader resumes on one contract. */
export interface LogCursorPosition {
  /** Lower-case address of the contract whose logs are read. */
  address: string;
  /** The first block not read yet. */
  nextBlock: bigint;
  /** Timestamp of block `nextBlock − 1` (the last one read), Unix seconds. */
  lastBlockTime: number;
}

/**
 * The cursors of one log source (`swaps`, `registry`) on one chain, by lower-case address. Contracts without a
 * cursor (never read) are absent.
 *
 * @param db the store's Kysely instance or an open transaction.
 */
export async function getLogCursors(
  db: Kysely<Database>,
  parameters: { source: string; chainId: number },
): Promise<Map<string, LogCursorPosition>> {
  const rows = await db
    .selectFrom("log_cursors")
    .select(["address", "next_block", "last_block_time"])
    .where("source", "=", parameters.source)
    .where("chain_id", "=", parameters.chainId)
    .execute();
  return new Map(
    rows.map((row) => [
      row.address,
      { address: row.address, nextBlock: BigInt(row.next_block), lastBlockTime: Number(row.last_block_time) },
    ]),
  );
}

/**
 * Moves a cursor from where a read started to past what it read, only if nobody moved it meanwhile (compare and
 * set): `from` null creates it (and fails if it exists), otherwise it must still be at `from`. Call it in the
 * transaction that writes what was read, BEFORE writing it, and write only when it returns true: two passes that read
 * the same range then count it once (on PostgreSQL the second waits for the first's row lock, then finds it moved).
 *
 * @param db an open transaction.
 * @returns whether the cursor moved.
 */
export async function advanceLogCursor(
  db: Kysely<Database>,
  parameters: {
    source: string;
    chainId: number;
    /** The `next_block` the read started from, or null when it started without a stored cursor. */
    from: bigint | null;
    to: LogCursorPosition;
    now: number;
  },
): Promise<boolean> {
  const { source, chainId, from, to, now } = parameters;
  const address = to.address.toLowerCase();
  const values = { next_block: to.nextBlock.toString(), last_block_time: to.lastBlockTime, updated_at: now };
  if (from === null) {
    const result = await db
      .insertInto("log_cursors")
      .values({ source, chain_id: chainId, address, ...values })
      .onConflict((oc) => oc.columns(["source", "chain_id", "address"]).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }
  const result = await db
    .updateTable("log_cursors")
    .set(values)
    .where("source", "=", source)
    .where("chain_id", "=", chainId)
    .where("address", "=", address)
    .where("next_block", "=", from.toString())
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Whether any cursor of a log source exists (its logs have been read at least once), e.g. `registry`. */
export async function hasLogCursors(db: Kysely<Database>, source: string): Promise<boolean> {
  const row = await db
    .selectFrom("log_cursors")
    .select("source")
    .where("source", "=", source)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
