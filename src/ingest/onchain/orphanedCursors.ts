import { BlockNotFoundError, type PublicClient } from "viem";
import type { LogCursorPosition } from "../../storage/logCursors";

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
 * DESIGN §12, the one orphan check of every log source (`swaps`, `registry`): the stored cursors whose block
 * (`nextBlock − 1`) no longer has the hash they stored (a reorganisation, or a chain now shorter than the cursor),
 * with the block their logs are read again from. A reorganisation deeper than `confirmations` behind a cursor is
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
}): Promise<OrphanedCursors | null> {
  const { client, confirmations, targetBlock } = parameters;
  const canonical = new Map<bigint, string | null>();
  const orphaned: LogCursorPosition[] = [];
  for (const cursor of parameters.cursors) {
    if (!cursor.blockHash || cursor.nextBlock === 0n) continue;
    const block = cursor.nextBlock - 1n;
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
 * The hash of each block, to store with the cursors that stop there: `known`'s from itself, one header per other
 * distinct block.
 */
export async function blockHashes(
  client: PublicClient,
  blocks: readonly bigint[],
  known: { block: bigint; hash?: string },
): Promise<Map<bigint, string>> {
  const hashes = new Map<bigint, string>();
  if (known.hash !== undefined) hashes.set(known.block, known.hash);
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
