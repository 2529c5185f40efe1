import type { Kysely } from "kysely";
import type { AbiEvent, Address, Hex, PublicClient } from "viem";
import { attestationRegistryAbi } from "@attestation-registry/sdk";
import type { RegistryEventName } from "../../model/activityKinds";
import { getLogCursors, type LogCursorPosition } from "../../storage/logCursors";
import type { Database } from "../../storage/schema";
import { findDeployBlock } from "../onchain/blockSearch";
import { getBlockTimes } from "../onchain/blockTimes";
import { countingClient } from "../onchain/countingClient";
import { blockHashes, findOrphanedCursors } from "../onchain/orphanedCursors";
import { readLogRanges } from "../onchain/readLogRanges";
import { planLogRanges } from "../rows/logRanges";
import { errorMessage, type StepResult } from "./stepResult";
import { confirmedLogTarget, logReadError, type LogReadOptions, type PinnedBlock } from "./swapLogs";

/** The `log_cursors.source` (and report name) of the AttestationRegistry's events. */
export const REGISTRY_SOURCE = "registry";

/** Every event of the AttestationRegistry ABI. */
const registryEvents = attestationRegistryAbi.filter(
  (item): item is Extract<typeof item, { type: "event" }> => item.type === "event",
) as unknown as AbiEvent[];

/** One registry event as read from its log. */
export interface RegistryLogEvent {
  eventName: RegistryEventName;
  args: Record<string, unknown>;
  block: bigint;
  logIndex: number;
  transactionHash: Hex;
  /** The block's timestamp, Unix seconds. */
  time: number;
}

/** What the registry step read: events from the cursor on, in chain order. */
export interface RegistryRead {
  chainId: number;
  address: string;
  from: LogCursorPosition;
  /** Whether `from` is the stored cursor (false: the first read, from the deployment block). */
  fromStored: boolean;
  /** The last block read. */
  readTo: bigint;
  readToTime: number;
  /** Hash of `readTo`, stored with the cursor and checked at the next pass. */
  readToHash: string;
  events: RegistryLogEvent[];
  /**
   * Set when the stored cursor's block is no longer canonical (a reorganisation): the read restarted at `from`, and
   * its events replace the stored ones of blocks from `from.nextBlock` on, moving the cursor from `storedNextBlock`.
   */
  replacing?: RegistryReplace;
  rpcRequests: number;
}

/** Where the re-read of a registry whose cursor stopped on an orphaned block starts. */
export interface RegistryReplace {
  /** The stored cursor's `next_block` (the compare and set of the move). */
  storedNextBlock: bigint;
  /** Timestamp of the restart block `from.nextBlock`: every event of a block from it on is at this time or later. */
  fromTime: number;
}

/** Parameters of {@link readRegistryStep}. */
export interface ReadRegistryStepParameters {
  /** The store, read only: the `registry` cursor. */
  db: Kysely<Database>;
  registry: { chainId: number; address: Address };
  /** The registry chain's client; without one the source is reported as failing. */
  client: PublicClient | undefined;
  /** The block this pass read the registry's chain at; read from the client ("latest") when the chain has no pool. */
  pinned?: PinnedBlock | undefined;
  options: LogReadOptions;
  log: (line: string) => void;
}

/**
 * Source `registry`: the configured AttestationRegistry's events (every event of its ABI) from the cursor up to the
 * pass's confirmed block (`confirmedLogTarget`: the `safe` block, else `confirmations` behind the pinned
 * block), in ranges of `rangeBlocks`. The first read starts at the registry's deployment block (found by halving on
 * `eth_getCode`). A cursor whose block is no longer canonical (`findOrphanedCursors`) is read again from
 * `confirmations` blocks before it (`replacing`). Each event carries its block's time. Writes nothing: the events and
 * the cursor are written by the pass's transaction. Rows: events read. Throws only when the store cannot be read.
 *
 * @param {@link ReadRegistryStepParameters}
 */
export async function readRegistryStep(
  parameters: ReadRegistryStepParameters,
): Promise<StepResult<RegistryRead | null>> {
  const { db, registry, options, log } = parameters;
  if (!parameters.client) {
    return {
      report: { ok: false, rows: 0, error: `no RPC client for the registry's chain ${registry.chainId}` },
      data: null,
    };
  }
  const address = registry.address.toLowerCase();
  const stored = (await getLogCursors(db, { source: REGISTRY_SOURCE, chainId: registry.chainId })).get(address);
  const { counted, requests, batch } = countingClient(parameters.client);
  try {
    // Read only up to the confirmed block, never the unconfirmed tail.
    const head = parameters.pinned ?? (await latestBlock(counted));
    const pinned = await confirmedLogTarget(counted, head, options.confirmations);
    const { from, replacing } = await startOfRead({ client: counted, registry, stored, pinned, head, options });
    if (replacing) log(`${REGISTRY_SOURCE}: read again from block ${from.nextBlock} after a reorganisation`);
    const groups = planLogRanges({
      members: [from],
      toBlock: pinned.block,
      rangeBlocks: options.rangeBlocks,
      maxRanges: options.maxRangesPerPass,
    });
    const read = await readLogRanges({
      client: counted,
      batch,
      groups,
      events: registryEvents,
      maxRequests: options.maxRangesPerPass,
    });
    if (read.narrowed > 0)
      log(`${REGISTRY_SOURCE}: ${read.narrowed} eth_getLogs range(s) narrowed on the provider's range error`);
    const member = read.members[0];
    if (!member || member.readTo === null) {
      if (read.error !== undefined) throw new Error(logReadError(read.error));
      return { report: { ok: true, rows: 0 }, data: null }; // already read past the pinned block
    }
    const known = new Map<bigint, number>([[pinned.block, pinned.time]]);
    const knownHashes = new Map<bigint, string>([[pinned.block, pinned.hash]]);
    for (const l of member.logs) if (l.blockTimestamp !== undefined) known.set(l.blockNumber, l.blockTimestamp);
    if (member.readToHeader) {
      known.set(member.readTo, member.readToHeader.timestamp);
      knownHashes.set(member.readTo, member.readToHeader.hash);
    }
    const times = await getBlockTimes({
      client: counted,
      blocks: [member.readTo, ...member.logs.map((l) => l.blockNumber)],
      known,
    });
    const hashes = await blockHashes(counted, [member.readTo], knownHashes);
    const events = member.logs
      .map((l): RegistryLogEvent => ({
        eventName: l.eventName as RegistryEventName, // decoded against registryEvents only
        args: l.args,
        block: l.blockNumber,
        logIndex: l.logIndex,
        transactionHash: l.transactionHash,
        time: times.get(l.blockNumber)!,
      }))
      .sort((a, b) => (a.block === b.block ? a.logIndex - b.logIndex : a.block < b.block ? -1 : 1));
    const data: RegistryRead = {
      chainId: registry.chainId,
      address,
      from,
      fromStored: stored !== undefined,
      readTo: member.readTo,
      readToTime: times.get(member.readTo)!,
      readToHash: hashes.get(member.readTo)!,
      events,
      rpcRequests: requests(),
      ...(replacing ? { replacing } : {}),
    };
    if (read.error !== undefined) {
      log(`${REGISTRY_SOURCE}: ${logReadError(read.error)}`);
      return { report: { ok: false, rows: events.length, error: logReadError(read.error).slice(0, 500) }, data };
    }
    return { report: { ok: true, rows: events.length }, data };
  } catch (error) {
    log(`${REGISTRY_SOURCE}: ${errorMessage(error)}`);
    return { report: { ok: false, rows: 0, error: errorMessage(error).slice(0, 500) }, data: null };
  }
}

/**
 * Where the read starts: the stored cursor; or, when its block is no longer canonical, `confirmations` blocks before
 * it (with the stored position, to move from); or, at the first read, the registry's deployment block.
 */
async function startOfRead(parameters: {
  client: PublicClient;
  registry: { address: Address };
  stored: LogCursorPosition | undefined;
  pinned: PinnedBlock;
  /** The block the pass read the chain at: the node's head. */
  head: PinnedBlock;
  options: LogReadOptions;
}): Promise<{ from: LogCursorPosition; replacing?: RegistryReplace }> {
  const { client, registry, stored, pinned } = parameters;
  const address = registry.address.toLowerCase();
  if (!stored) {
    const deployed = await findDeployBlock({ client, address: registry.address, upTo: pinned.block });
    if (deployed === null) throw new Error(`no contract at ${registry.address} at block ${pinned.block}`);
    return { from: { address, nextBlock: deployed, lastBlockTime: 0 } };
  }
  const orphaned = await findOrphanedCursors({
    client,
    cursors: [stored],
    confirmations: parameters.options.confirmations,
    targetBlock: pinned.block,
    headBlock: parameters.head.block,
  });
  if (orphaned === null) return { from: stored };
  const nextBlock = orphaned.restartBlock;
  const fromTime = Number((await client.getBlock({ blockNumber: nextBlock })).timestamp);
  return {
    // lastBlockTime: an upper bound (the restart block's own time); the registry's write does not read it.
    from: { address, nextBlock, lastBlockTime: fromTime, blockHash: null },
    replacing: { storedNextBlock: stored.nextBlock, fromTime },
  };
}

async function latestBlock(client: PublicClient): Promise<PinnedBlock> {
  const block = await client.getBlock({ blockTag: "latest" });
  return { block: block.number, time: Number(block.timestamp) };
}
