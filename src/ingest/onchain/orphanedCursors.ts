import { BlockNotFoundError, type PublicClient } from "viem";
import type { LogCursorPosition } from "../../storage/logCursors";
import { NodeBehindError } from "./logRangeErrors";

/** The stored cursors a reorganisation left on orphaned blocks, and where their logs are read again from. */
export interface OrphanedCursors {
  /** The cursors whose block (`nextBlock − 1`) no longer has the hash they stored. */
  cursors: LogCursorPosition[];
  /**
   * The first block read again: `confirmations` blocks before the deepest orphaned cursor's block, never past the
   * confirmed block of the pass, never below 0.
   */
  restartBlock: bigint;
}

/**
 * The one orphan check of every log source (`swaps`, `registry`): the stored cursors whose block (`nextBlock − 1`)
 * no longer has the hash they stored (a reorganisation), with the block their logs are read again from. A cursor
 * whose block is above the node's head (`headBlock`) is not taken for a reorganisation: the node is behind, and the
 * check throws a {@link NodeBehindError} so that nothing moves until a node that has the block answers. A reorganisation deeper than `confirmations` behind a cursor is
 * read again only from that depth. Cursors without a stored hash (written before migration `010_cursor_hash`) are not
 * checked. One block header per distinct cursor block.
 *
 * @returns null when no cursor is orphaned.
 */
export async function findOrphanedCursors(parameters: {
  client: PublicClient;
  cursors: Iterable<LogCursorPosition>;
  confirmations: number;
  /** The pass's confirmed block (`confirmedLogTarget`). */
  targetBlock: bigint;
  /** The node's head as this pass read it (the pinned block); default: not checked. */
  headBlock?: bigint;
}): Promise<OrphanedCursors | null> {
  const { client, confirmations, targetBlock, headBlock } = parameters;
  const canonical = new Map<bigint, string | null>();
  const orphaned: LogCursorPosition[] = [];
  for (const cursor of parameters.cursors) {
    if (!cursor.blockHash || cursor.nextBlock === 0n) continue;
    const block = cursor.nextBlock - 1n;
    // A node whose head is below a stored cursor has not seen that block yet: it is behind, not reorganised.
    if (headBlock !== undefined && block > headBlock) throw new NodeBehindError(block);
    if (!canonical.has(block)) canonical.set(block, await canonicalHashAt(client, block));
    if (canonical.get(block) !== cursor.blockHash) orphaned.push(cursor);
  }
  if (orphaned.length === 0) return null;
  const deepest = orphaned.reduce((min, c) => (c.nextBlock < min ? c.nextBlock : min), orphaned[0].nextBlock);
  let restartBlock = deepest - 1n - BigInt(confirmations);
  if (restartBlock > targetBlock) restartBlock = targetBlock;
  if (restartBlock < 0n) restartBlock = 0n;
  return { cursors: orphaned, restartBlock };
}

/**
 * The hash of each block, to store with the cursors that stop there: the `known` ones (headers already read), one
 * header per other distinct block.
 */
export async function blockHashes(
  client: PublicClient,
  blocks: readonly bigint[],
  known: ReadonlyMap<bigint, string>,
): Promise<Map<bigint, string>> {
  const hashes = new Map<bigint, string>(known);
  for (const block of new Set(blocks)) {
    if (!hashes.has(block)) hashes.set(block, (await client.getBlock({ blockNumber: block })).hash);
  }
  return hashes;
}

/** The canonical hash of a block, or null when the chain has no block at that height (any other error is thrown). */
async function canonicalHashAt(client: PublicClient, block: bigint): Promise<string | null> {
  try {
    return (await client.getBlock({ blockNumber: block })).hash;
  } catch (error) {
    if (error instanceof BlockNotFoundError) return null;
    throw error;
  }
}
