import type { Kysely } from "kysely";
import { parseAbiItem, type PublicClient } from "viem";
import { getLogCursors, type LogCursorPosition } from "../../storage/logCursors";
import { utcDay } from "../../storage/poolDaily";
import { firstVolumeDaysFrom } from "../../storage/poolVolume";
import type { Database } from "../../storage/schema";
import { findFirstBlockAtOrAfter } from "../onchain/blockSearch";
import { getBlockTimes, resolveBlockHours } from "../onchain/blockTimes";
import { countingClient } from "../onchain/countingClient";
import { blockHashes, findOrphanedCursors } from "../onchain/orphanedCursors";
import { NodeBehindError, providerErrorText } from "../onchain/logRangeErrors";
import { readLogRanges, type MemberLogs } from "../onchain/readLogRanges";
import { planLogRanges } from "../rows/logRanges";
import type { SwapEvent } from "../rows/swapVolume";
import { errorMessage, type StepResult } from "./stepResult";

/** The `log_cursors.source` of the pools' `Swap` logs. */
export const SWAPS_SOURCE = "swaps";

/** Uniswap V2's `Swap` event. */
export const swapEvent = parseAbiItem(
  "event Swap(address indexed sender, uint amount0In, uint amount1In, uint amount0Out, uint amount1Out, address indexed to)",
);

/** How log readers page through blocks (`RunIngestionPassParameters.logs`). */
export interface LogReadOptions {
  /** Most blocks in one `eth_getLogs` request. Default 2000. */
  rangeBlocks: number;
  /** Most `eth_getLogs` requests per chain and source in one pass; the rest is caught up by the next passes. Default 200. */
  maxRangesPerPass: number;
  /** A pool read for the first time starts at the UTC midnight before `pinned time − lookbackS`. Default 86 400. */
  lookbackS: number;
  /**
   * `LOG_CONFIRMATIONS`: where the node serves no `safe` block, log reads stop this many blocks behind the
   * pinned block. Default 12.
   */
  confirmations: number;
}

export const DEFAULT_LOG_READ_OPTIONS: LogReadOptions = {
  rangeBlocks: 2000,
  maxRangesPerPass: 200,
  lookbackS: 86_400,
  confirmations: 12,
};

/** The block a pass read a chain at. */
export interface PinnedBlock {
  block: bigint;
  /** Its timestamp, Unix seconds. */
  time: number;
  /** Its hash, where known. */
  hash?: string;
}

/** One pool's `Swap` logs read in this pass, from its cursor on. */
export interface PoolSwapRead {
  address: string;
  /** Where the read started: the stored cursor, or the first pass's lookback. */
  from: LogCursorPosition;
  /** Whether `from` is a stored cursor (false: the lookback of a pool never read). */
  fromStored: boolean;
  /** The last block read (`from.nextBlock − 1` when nothing new was read). */
  readTo: bigint;
  /** Timestamp of `readTo`. */
  readToTime: number;
  /** Hash of `readTo` (stored with the cursor, checked at the next pass); null when unknown. */
  readToHash?: string | null;
  /** Whether the pool's logs are now read up to the pinned block (its 24 h figure can be computed). */
  reachedPinned: boolean;
  swaps: SwapEvent[];
  /**
   * Set when the stored cursor's block is no longer canonical (a reorganisation): the read restarts at `from`, and its
   * counts replace the pool's volume from `fromDay` on, moving the cursor from `storedNextBlock`.
   */
  replacing?: RecountStart;
}

/** Where the recount of a pool whose cursor stopped on an orphaned block starts. */
export interface RecountStart {
  /** The stored cursor's `next_block` (the compare and set of the move). */
  storedNextBlock: bigint;
  /** The first UTC day whose counts are replaced; `from` is the first block its count started from. */
  fromDay: string;
  from: LogCursorPosition;
}

/** What the swap-log step of one chain read. */
export interface SwapRead {
  chainId: number;
  /** The block the logs were read up to: the confirmed block of {@link confirmedLogTarget}, with its hash. */
  pinned: PinnedBlock;
  pools: PoolSwapRead[];
  /** JSON-RPC requests the step sent (lookback search, `eth_getLogs`, block headers). */
  rpcRequests: number;
}

/** Parameters of {@link readSwapLogsStep}. */
export interface ReadSwapLogsStepParameters {
  /** The store, read only: the `swaps` cursors. */
  db: Kysely<Database>;
  chainId: number;
  client: PublicClient;
  /** Lower-case addresses of the chain's AMM pools that this pass can value (read and priced). */
  pools: readonly string[];
  pinned: PinnedBlock;
  options: LogReadOptions;
  log: (line: string) => void;
}

/**
 * Source `swaps:<chainId>`: the `Swap` logs of the chain's AMM pools from each pool's cursor up to the confirmed block
 * ({@link confirmedLogTarget}: the unconfirmed tail is not read), in ranges of `rangeBlocks` with every
 * pool of a range in one request (`planLogRanges`), each swap with the UTC hour of its block. A pool without a cursor
 * starts at the first block of the UTC day of `pinned time − lookbackS`; a pool whose cursor stopped on a block that
 * is no longer canonical is recounted ({@link recountStarts}). Writes nothing: the volume and the cursors are
 * written by the pass's transaction. A failing request stops the reading; what was read before it is kept. Rows:
 * pools read up to the confirmed block. Throws only when the store cannot be read.
 *
 * @param {@link ReadSwapLogsStepParameters}
 */
export async function readSwapLogsStep(parameters: ReadSwapLogsStepParameters): Promise<StepResult<SwapRead>> {
  const { db, chainId, pools, pinned, options, log } = parameters;
  const { counted, requests, batch } = countingClient(parameters.client);
  const stored = await getLogCursors(db, { source: SWAPS_SOURCE, chainId });
  const data: SwapRead = { chainId, pinned, pools: [], rpcRequests: 0 };
  if (pools.length === 0) return { report: undefined, data };
  try {
    const target = await confirmedLogTarget(counted, pinned, options.confirmations);
    data.pinned = target;
    const mine = new Map([...stored].filter(([address]) => pools.includes(address)));
    const recounts = await recountStarts({ db, client: counted, chainId, stored: mine, options, target, head: pinned });
    if (recounts.size > 0) log(`swaps:${chainId}: ${recounts.size} pool(s) recounted after a reorganisation`);
    const resumed = new Map([...stored].map(([address, cursor]) => [address, recounts.get(address)?.from ?? cursor]));
    const cursors = await startingCursors(counted, pools, resumed, target, options.lookbackS);
    const groups = planLogRanges({
      members: [...cursors.values()],
      toBlock: target.block,
      rangeBlocks: options.rangeBlocks,
      maxRanges: options.maxRangesPerPass,
    });
    const read = await readLogRanges({
      client: counted,
      batch,
      groups,
      events: [swapEvent],
      maxRequests: options.maxRangesPerPass,
    });
    data.pools = await poolReads(counted, { starting: cursors, stored, recounts }, read.members, target);
    data.rpcRequests = requests();
    if (read.narrowed > 0)
      log(`swaps:${chainId}: ${read.narrowed} eth_getLogs range(s) narrowed on the provider's range error`);
    const behind = read.budgetSpent
      ? data.pools.filter((p) => !p.reachedPinned).length
      : groups.filter((g) => !g.complete).reduce((n, g) => n + g.members.length, 0);
    if (behind > 0)
      log(`swaps:${chainId}: ${behind} pool(s) still catching up (${options.maxRangesPerPass} requests a pass)`);
    const reached = data.pools.filter((p) => p.reachedPinned).length;
    if (read.error !== undefined) {
      log(`swaps:${chainId}: ${logReadError(read.error)}`);
      return { report: { ok: false, rows: reached, error: logReadError(read.error).slice(0, 500) }, data };
    }
    return { report: { ok: true, rows: reached }, data };
  } catch (error) {
    data.rpcRequests = requests();
    log(`swaps:${chainId}: ${errorMessage(error)}`);
    return { report: { ok: false, rows: 0, error: errorMessage(error).slice(0, 500) }, data };
  }
}

/** Every pool's cursor: the stored one, or (first read) the first block of the lookback's UTC day. */
async function startingCursors(
  client: PublicClient,
  pools: readonly string[],
  stored: ReadonlyMap<string, LogCursorPosition>,
  pinned: PinnedBlock,
  lookbackS: number,
): Promise<Map<string, LogCursorPosition>> {
  const cursors = new Map<string, LogCursorPosition>();
  let lookback: LogCursorPosition | undefined;
  for (const address of pools) {
    const cursor = stored.get(address);
    if (cursor) {
      cursors.set(address, cursor);
      continue;
    }
    if (!lookback) {
      const dayStart = Date.parse(`${utcDay(pinned.time - lookbackS)}T00:00:00Z`) / 1000;
      const first = await findFirstBlockAtOrAfter({
        client,
        time: dayStart,
        upTo: { number: pinned.block, timestamp: pinned.time },
      });
      lookback = { address: "", nextBlock: first?.number ?? pinned.block + 1n, lastBlockTime: dayStart - 1 };
    }
    cursors.set(address, { ...lookback, address });
  }
  return cursors;
}

/** Each pool's read: its swaps with their hours and the time of the last block read. */
async function poolReads(
  client: PublicClient,
  cursors: {
    starting: ReadonlyMap<string, LogCursorPosition>;
    stored: ReadonlyMap<string, LogCursorPosition>;
    recounts: ReadonlyMap<string, RecountStart>;
  },
  members: readonly MemberLogs[],
  pinned: PinnedBlock,
): Promise<PoolSwapRead[]> {
  const known = new Map<bigint, number>([[pinned.block, pinned.time]]);
  const knownHashes = new Map<bigint, string>(pinned.hash !== undefined ? [[pinned.block, pinned.hash]] : []);
  for (const m of members) {
    for (const l of m.logs) if (l.blockTimestamp !== undefined) known.set(l.blockNumber, l.blockTimestamp);
    if (m.readTo !== null && m.readToHeader) {
      known.set(m.readTo, m.readToHeader.timestamp);
      knownHashes.set(m.readTo, m.readToHeader.hash);
    }
  }
  const ends = await getBlockTimes({
    client,
    blocks: members.flatMap((m) => (m.readTo === null ? [] : [m.readTo])),
    known,
  });
  const hours = await resolveBlockHours({
    client,
    blocks: members.flatMap((m) => m.logs.map((l) => l.blockNumber)),
    known,
  });
  const hashes = await blockHashes(
    client,
    members.flatMap((m) => (m.readTo === null ? [] : [m.readTo])),
    knownHashes,
  );
  const byAddress = new Map(members.map((m) => [m.address, m]));
  const reads: PoolSwapRead[] = [];
  for (const [address, from] of cursors.starting) {
    const fromStored = cursors.stored.has(address);
    const replacing = cursors.recounts.get(address);
    // A recount starts where the replaced day's count started: swaps before that day are counted in the kept rows.
    const replacedFrom = replacing ? Date.parse(`${replacing.fromDay}T00:00:00Z`) / 1000 : -Infinity;
    const member = byAddress.get(address);
    if (member?.readTo !== null && member?.readTo !== undefined) {
      const swaps = member.logs
        .map((l): SwapEvent => ({
          block: l.blockNumber,
          logIndex: l.logIndex,
          hour: hours.get(l.blockNumber)!,
          amount0In: l.args.amount0In as bigint,
          amount1In: l.args.amount1In as bigint,
          amount0Out: l.args.amount0Out as bigint,
          amount1Out: l.args.amount1Out as bigint,
        }))
        .filter((swap) => swap.hour >= replacedFrom)
        .sort((a, b) => (a.block === b.block ? a.logIndex - b.logIndex : a.block < b.block ? -1 : 1));
      const readTo = member.readTo;
      reads.push({
        address,
        from,
        fromStored,
        readTo,
        readToTime: ends.get(readTo)!,
        readToHash: hashes.get(readTo) ?? null,
        reachedPinned: readTo >= pinned.block,
        swaps,
        ...(replacing ? { replacing } : {}),
      });
    } else if (from.nextBlock > pinned.block) {
      // Already read past the pinned block (a pass at the same block): nothing new, the 24 h figure is recomputed.
      reads.push({
        address,
        from,
        fromStored,
        readTo: from.nextBlock - 1n,
        readToTime: from.lastBlockTime,
        readToHash: from.blockHash ?? null,
        reachedPinned: true,
        swaps: [],
      });
    }
  }
  return reads;
}

/**
 * Where a pass's log reads stop (docs/data.md#confirmations-and-reorganisations-design-12): the chain's `safe` block
 * where the node serves that tag, else `confirmations` blocks behind the pinned block; never past the pinned block.
 * Throws a RangeError when `confirmations` is not a non-negative integer.
 */
export async function confirmedLogTarget(
  client: PublicClient,
  pinned: PinnedBlock,
  confirmations: number,
): Promise<Required<PinnedBlock>> {
  if (!Number.isSafeInteger(confirmations) || confirmations < 0) {
    throw new RangeError(`LOG_CONFIRMATIONS must be a non-negative integer, got ${confirmations}`);
  }
  let safe: Awaited<ReturnType<PublicClient["getBlock"]>> | null = null;
  try {
    safe = await client.getBlock({ blockTag: "safe" });
  } catch {
    safe = null; // the node does not serve the tag: fall back to the confirmation depth
  }
  if (safe !== null && safe.number !== null && safe.hash !== null && safe.number <= pinned.block) {
    return { block: safe.number, time: Number(safe.timestamp), hash: safe.hash };
  }
  const lagged = pinned.block - BigInt(confirmations);
  // A safe block past the pinned one (mined since the pass pinned the chain): the pinned block.
  const number = safe !== null && safe.number !== null ? pinned.block : lagged < 0n ? 0n : lagged;
  const block = await client.getBlock({ blockNumber: number });
  return { block: number, time: Number(block.timestamp), hash: block.hash };
}

/**
 * Where each pool whose cursor stopped on an orphaned block ({@link findOrphanedCursors}) is recounted
 * from. The recount goes back from the shared restart block to the start of that block's UTC day: it restarts at the
 * first block the pool's earliest volume row from that day on was counted from, and replaces every row from that
 * row's day on, so nothing from the orphaned blocks stays and nothing is counted twice.
 */
async function recountStarts(parameters: {
  db: Kysely<Database>;
  client: PublicClient;
  chainId: number;
  stored: ReadonlyMap<string, LogCursorPosition>;
  options: LogReadOptions;
  target: PinnedBlock;
  /** The block the pass read the chain at: the node's head. */
  head: PinnedBlock;
}): Promise<Map<string, RecountStart>> {
  const { db, client, chainId, stored, options, target } = parameters;
  const recounts = new Map<string, RecountStart>();
  const found = await findOrphanedCursors({
    client,
    cursors: stored.values(),
    confirmations: options.confirmations,
    targetBlock: target.block,
    headBlock: parameters.head.block,
  });
  if (found === null) return recounts;
  const orphaned = found.cursors;
  const day = utcDay(Number((await client.getBlock({ blockNumber: found.restartBlock })).timestamp));
  const rows = await firstVolumeDaysFrom(db, { chainId, addresses: orphaned.map((c) => c.address), fromDay: day });
  let fallback: bigint | undefined;
  for (const cursor of orphaned) {
    const row = rows.get(cursor.address);
    const fromDay = row?.day ?? day;
    if (!row && fallback === undefined) {
      const midnight = Date.parse(`${day}T00:00:00Z`) / 1000;
      const first = await findFirstBlockAtOrAfter({
        client,
        time: midnight,
        upTo: { number: target.block, timestamp: target.time },
      });
      fallback = first?.number ?? target.block + 1n;
    }
    const nextBlock = row?.firstBlock ?? fallback!;
    const lastBlockTime = Date.parse(`${fromDay}T00:00:00Z`) / 1000 - 1;
    recounts.set(cursor.address, {
      storedNextBlock: cursor.nextBlock,
      fromDay,
      from: { address: cursor.address, nextBlock, lastBlockTime, blockHash: null },
    });
  }
  return recounts;
}

/**
 * The report text of an error that stopped a log read: a node behind as such ("RPC node is behind: it does not know
 * block N"), a provider's error with its own code and message ("eth_getLogs failed: -32005 query returned more than
 * 10000 results. …").
 */
export function logReadError(error: unknown): string {
  return error instanceof NodeBehindError ? error.message : `eth_getLogs failed: ${providerErrorText(error)}`;
}
