import type { Kysely } from "kysely";
import { chunksOf, roundsByKey } from "./batches";
import type { Database } from "./schema";

/** Where one log reader resumes on one contract. */
export interface LogCursorPosition {
  /** Lower-case address of the contract whose logs are read. */
  address: string;
  /** The first block not read yet. */
  nextBlock: bigint;
  /** Timestamp of block `nextBlock − 1` (the last one read), Unix seconds. */
  lastBlockTime: number;
  /**
   * Hash of block `nextBlock − 1` when it was read (checked at the next pass); null when unknown (a cursor from before
   * it was kept).
   */
  blockHash?: string | null;
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
    .select(["address", "next_block", "last_block_time", "last_block_hash"])
    .where("source", "=", parameters.source)
    .where("chain_id", "=", parameters.chainId)
    .execute();
  return new Map(
    rows.map((row) => [
      row.address,
      {
        address: row.address,
        nextBlock: BigInt(row.next_block),
        lastBlockTime: Number(row.last_block_time),
        blockHash: row.last_block_hash,
      },
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
  const [moved] = await advanceLogCursors(db, { source, chainId, moves: [{ from, to }], now });
  return moved;
}

/** One cursor's move in {@link advanceLogCursors}. */
export interface LogCursorMove {
  /** The `next_block` the read started from, or null when it started without a stored cursor. */
  from: bigint | null;
  to: LogCursorPosition;
}

/**
 * {@link advanceLogCursor} for many contracts of one source and chain, each compare and set as if alone: the new
 * cursors in one multi-row `INSERT … ON CONFLICT DO NOTHING RETURNING`, the moved ones in one
 * `UPDATE … SET next_block = CASE address …` whose WHERE names each cursor's expected position, `RETURNING` the
 * addresses it moved (chunked). A contract listed twice is moved in a later round, from where the first move left
 * it.
 *
 * @param db an open transaction.
 * @returns whether each cursor moved, in the order given.
 */
export async function advanceLogCursors(
  db: Kysely<Database>,
  parameters: { source: string; chainId: number; moves: readonly LogCursorMove[]; now: number },
): Promise<boolean[]> {
  const { source, chainId, now } = parameters;
  const moves = parameters.moves.map((move, index) => ({ ...move, index, address: move.to.address.toLowerCase() }));
  const moved: boolean[] = moves.map(() => false);
  for (const round of roundsByKey(moves, (move) => move.address)) {
    const created = round.filter((move) => move.from === null);
    for (const chunk of chunksOf(created, 7)) {
      const rows = await db
        .insertInto("log_cursors")
        .values(
          chunk.map((move) => ({
            source,
            chain_id: chainId,
            address: move.address,
            next_block: move.to.nextBlock.toString(),
            last_block_time: move.to.lastBlockTime,
            last_block_hash: move.to.blockHash ?? null,
            updated_at: now,
          })),
        )
        .onConflict((oc) => oc.columns(["source", "chain_id", "address"]).doNothing())
        .returning("address")
        .execute();
      const inserted = new Set(rows.map((row) => row.address));
      for (const move of chunk) moved[move.index] = inserted.has(move.address);
    }
    const advanced = round.filter((move) => move.from !== null);
    for (const chunk of chunksOf(advanced, 9)) {
      const rows = await db
        .updateTable("log_cursors")
        .set((eb) => {
          let next = eb.case("address").when(chunk[0].address).then(chunk[0].to.nextBlock.toString());
          let time = eb.case("address").when(chunk[0].address).then(chunk[0].to.lastBlockTime);
          let hash = eb
            .case("address")
            .when(chunk[0].address)
            .then(chunk[0].to.blockHash ?? null);
          for (const move of chunk.slice(1)) {
            next = next.when(move.address).then(move.to.nextBlock.toString());
            time = time.when(move.address).then(move.to.lastBlockTime);
            hash = hash.when(move.address).then(move.to.blockHash ?? null);
          }
          // ELSE keeps a row's value (never taken: the WHERE names only the rows listed) and gives the CASE its type.
          return {
            next_block: next.else(eb.ref("next_block")).end(),
            last_block_time: time.else(eb.ref("last_block_time")).end(),
            last_block_hash: hash.else(eb.ref("last_block_hash")).end(),
            updated_at: now,
          };
        })
        .where("source", "=", source)
        .where("chain_id", "=", chainId)
        .where((eb) =>
          eb.or(
            chunk.map((move) =>
              eb.and([eb("address", "=", move.address), eb("next_block", "=", move.from!.toString())]),
            ),
          ),
        )
        .returning("address")
        .execute();
      const updated = new Set(rows.map((row) => row.address));
      for (const move of chunk) moved[move.index] = updated.has(move.address);
    }
  }
  return moved;
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
