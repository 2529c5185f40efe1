import type { AbiEvent, Hex, PublicClient } from "viem";
import type { LogRangeGroup } from "../rows/logRanges";

/** One decoded log. */
export interface RangedLog {
  /** Lower-case address of the contract that emitted it. */
  address: string;
  blockNumber: bigint;
  logIndex: number;
  transactionHash: Hex;
  eventName: string;
  args: Record<string, unknown>;
  /** The block's timestamp when the node includes it in the log (not every node does). */
  blockTimestamp?: number;
}

/** What was read for one contract: its logs from its cursor on, and the last block read (null: nothing new). */
export interface MemberLogs {
  address: string;
  /** The cursor the read started from. */
  nextBlock: bigint;
  /** The last block read for this contract, or null when nothing at or after `nextBlock` was read. */
  readTo: bigint | null;
  logs: RangedLog[];
}

/** Parameters of {@link readLogRanges}. */
export interface ReadLogRangesParameters {
  client: PublicClient;
  /** The plan (`planLogRanges`). */
  groups: readonly LogRangeGroup[];
  /** The events to read (topic 0 filter); logs are decoded strictly against them. */
  events: readonly AbiEvent[];
}

/**
 * Runs a plan of `eth_getLogs` requests, range after range, each with all of its group's addresses and pinned block
 * numbers (never a tag). Stops at the first failing request: what was read before it is returned (each contract up
 * to the last range read whole) with the error, and the rest is left to the next pass.
 *
 * @param {@link ReadLogRangesParameters}
 * @returns one {@link MemberLogs} per member of every group, and the first error, if any.
 */
export async function readLogRanges(
  parameters: ReadLogRangesParameters,
): Promise<{ members: MemberLogs[]; error?: unknown }> {
  const { client, groups, events } = parameters;
  const members: MemberLogs[] = [];
  let error: unknown;
  for (const group of groups) {
    const logs: RangedLog[] = [];
    let readTo: bigint | null = null;
    for (const range of group.ranges) {
      if (error !== undefined) break;
      try {
        const found = await client.getLogs({
          address: group.members.map((m) => m.address as Hex),
          events,
          fromBlock: range.fromBlock,
          toBlock: range.toBlock,
          strict: true,
        });
        logs.push(...found.map(toRangedLog));
        readTo = range.toBlock;
      } catch (caught) {
        error = caught;
      }
    }
    for (const member of group.members) {
      const read = readTo !== null && readTo >= member.nextBlock ? readTo : null;
      members.push({
        address: member.address,
        nextBlock: member.nextBlock,
        readTo: read,
        logs:
          read === null ? [] : logs.filter((l) => l.address === member.address && l.blockNumber >= member.nextBlock),
      });
    }
  }
  return error === undefined ? { members } : { members, error };
}

/** viem's decoded log as a {@link RangedLog}. */
function toRangedLog(log: {
  address: string;
  blockNumber: bigint | null;
  logIndex: number | null;
  transactionHash: Hex | null;
  eventName?: string;
  args?: unknown;
  blockTimestamp?: bigint | null;
}): RangedLog {
  return {
    address: log.address.toLowerCase(),
    blockNumber: log.blockNumber ?? 0n,
    logIndex: log.logIndex ?? 0,
    transactionHash: log.transactionHash ?? "0x",
    eventName: log.eventName ?? "",
    args: (log.args ?? {}) as Record<string, unknown>,
    ...(log.blockTimestamp !== undefined && log.blockTimestamp !== null
      ? { blockTimestamp: Number(log.blockTimestamp) }
      : {}),
  };
}
