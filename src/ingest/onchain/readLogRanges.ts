import { formatLog, numberToHex, parseEventLogs, toEventSelector } from "viem";
import type { AbiEvent, Hex, PublicClient, RpcLog } from "viem";
import type { LogRangeGroup } from "../rows/logRanges";
import type { RpcBatch, RpcCall } from "./countingClient";
import { classifyLogRangeError, NodeBehindError } from "./logRangeErrors";

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
  /** The header of `readTo` as the reading endpoint returned it with the logs (hash and timestamp), when read. */
  readToHeader?: { hash: string; timestamp: number };
  logs: RangedLog[];
}

/** Parameters of {@link readLogRanges}. */
export interface ReadLogRangesParameters {
  client: PublicClient;
  /** Sends calls as one JSON-RPC batch (HTTP transports); without it the header and the logs are two requests. */
  batch?: RpcBatch | undefined;
  /** The plan (`planLogRanges`): each group's ranges are read from its first block to its last. */
  groups: readonly LogRangeGroup[];
  /** The events to read (topic 0 filter); logs are decoded strictly against them. */
  events: readonly AbiEvent[];
  /**
   * Most `eth_getLogs` requests, all groups together, narrowed retries included beyond the first ones (the bit length
   * of the first span: at most 11 more for 2,000 blocks); default: 200, or the plan's range count when larger.
   * When it runs out, what was read is kept and the rest is left to the next pass (`budgetSpent`).
   */
  maxRequests?: number;
}

const DEFAULT_MAX_REQUESTS = 200;

/** What {@link readLogRanges} read. */
export interface ReadLogRangesResult {
  members: MemberLogs[];
  /** The first error that stopped the reading (a provider's error, or a {@link NodeBehindError}). */
  error?: unknown;
  /** `eth_getLogs` requests sent, refused ones included. */
  requests: number;
  /** Narrowed retries after a provider's range or size error. */
  narrowed: number;
  /** Whether the request budget stopped the reading before the plan's end. */
  budgetSpent: boolean;
}

/**
 * Runs a plan of `eth_getLogs` requests, each with all of its group's addresses and pinned block numbers (never a
 * tag), each together with the header of its last block from the same endpoint ({@link logsWithHeader}): a range
 * counts as read only when the endpoint returned that header, so a node behind (logs answered only up to its own
 * head, without an error) never moves a cursor past a block it did not know. A missing header stops the reading with
 * a {@link NodeBehindError}.
 *
 * The span starts at the plan's (`LOG_RANGE_BLOCKS`). On a provider's range or size error
 * ({@link classifyLogRangeError}) the request is retried with the range the provider suggests, else with half of it,
 * down to one block; the narrowed span is kept for the rest of this call. A rate limit or any other error stops the
 * reading. Every request counts against `maxRequests`, except the refusals of a first narrowing down to one block (at
 * most the bit length of the first span): a pass always reads at least one range, and sends at most `maxRequests`
 * plus that many. What was read before a stop is
 * returned (each contract up to the last range read whole) with the error; the rest is left to the next pass.
 *
 * @param {@link ReadLogRangesParameters}
 */
export async function readLogRanges(parameters: ReadLogRangesParameters): Promise<ReadLogRangesResult> {
  const { client, batch, groups, events } = parameters;
  const planned = groups.reduce((n, g) => n + g.ranges.length, 0);
  const budget = parameters.maxRequests ?? Math.max(planned, DEFAULT_MAX_REQUESTS);
  const members: MemberLogs[] = [];
  let error: unknown;
  let requests = 0;
  let narrowed = 0;
  let budgetSpent = false;
  let span: bigint | undefined;
  // Narrowing from the first span down to one block takes at most its bit length in refused requests: those do not
  // count against the budget, so that a pass always reads at least one range (a budget spent on halving alone would
  // never progress). Further refusals count.
  let allowance = 0;
  const spent = () => requests - Math.min(narrowed, allowance);
  for (const group of groups) {
    const logs: RangedLog[] = [];
    let readTo: bigint | null = null;
    let header: { hash: string; timestamp: number } | undefined;
    const first = group.ranges[0];
    const last = group.ranges[group.ranges.length - 1];
    let from = first?.fromBlock ?? 0n;
    const end = last?.toBlock ?? -1n;
    if (span === undefined && first) {
      span = first.toBlock - first.fromBlock + 1n;
      allowance = span.toString(2).length;
    }
    while (error === undefined && !budgetSpent && span !== undefined && from <= end) {
      if (spent() >= budget) {
        budgetSpent = true;
        break;
      }
      const to = from + span - 1n < end ? from + span - 1n : end;
      requests++;
      try {
        const got = await logsWithHeader({
          client,
          batch,
          events,
          addresses: group.members,
          fromBlock: from,
          toBlock: to,
        });
        logs.push(...got.logs);
        readTo = to;
        header = got.header;
        from = to + 1n;
      } catch (caught) {
        const kind =
          caught instanceof NodeBehindError ? null : classifyLogRangeError(caught, { fromBlock: from, toBlock: to });
        if (kind?.kind === "range" && to > from) {
          const half = (to - from + 1n) / 2n;
          const narrowTo = kind.suggested?.toBlock ?? from + (half > 0n ? half : 1n) - 1n;
          span = narrowTo - from + 1n;
          narrowed++;
          continue;
        }
        error = caught;
      }
    }
    for (const member of group.members) {
      const read = readTo !== null && readTo >= member.nextBlock ? readTo : null;
      members.push({
        address: member.address,
        nextBlock: member.nextBlock,
        readTo: read,
        ...(read !== null && header ? { readToHeader: header } : {}),
        logs:
          read === null ? [] : logs.filter((l) => l.address === member.address && l.blockNumber >= member.nextBlock),
      });
    }
  }
  return { members, requests, narrowed, budgetSpent, ...(error === undefined ? {} : { error }) };
}

/**
 * One range's logs and the header of its last block, from the same endpoint: one JSON-RPC batch where the transport
 * is HTTP (one request, so a load balancer sends both calls to one node); else two requests, the header first, so the
 * logs come from a node that knew the block. The logs are decoded strictly (a log that does not decode against
 * `events` is left out, as `getLogs({ strict: true })` does).
 *
 * @throws {@link NodeBehindError} when the endpoint has no header for `toBlock`; the provider's error otherwise.
 */
export async function logsWithHeader(parameters: {
  client: PublicClient;
  batch?: RpcBatch | undefined;
  events: readonly AbiEvent[];
  addresses: readonly { address: string }[];
  fromBlock: bigint;
  toBlock: bigint;
}): Promise<{ logs: RangedLog[]; header: { hash: string; timestamp: number } }> {
  const { client, batch, events, fromBlock, toBlock } = parameters;
  const filter = {
    address: parameters.addresses.map((m) => m.address as Hex),
    topics: [events.map((event) => toEventSelector(event))],
    fromBlock: numberToHex(fromBlock),
    toBlock: numberToHex(toBlock),
  };
  const getLogs: RpcCall = { method: "eth_getLogs", params: [filter] };
  const getHeader: RpcCall = { method: "eth_getBlockByNumber", params: [numberToHex(toBlock), false] };
  let raw: unknown;
  let block: unknown;
  if (batch) {
    const [logs, header] = await batch([getLogs, getHeader]);
    if ("error" in logs) throw logs.error;
    if ("error" in header) throw header.error;
    raw = logs.result;
    block = header.result;
  } else {
    block = await client.request(getHeader as never);
    if (block === null || block === undefined) throw new NodeBehindError(toBlock);
    raw = await client.request(getLogs as never);
  }
  const head = block as { hash?: unknown; timestamp?: unknown; number?: unknown } | null | undefined;
  if (head === null || head === undefined || typeof head.hash !== "string" || typeof head.timestamp !== "string")
    throw new NodeBehindError(toBlock);
  if (!Array.isArray(raw)) throw new Error(`eth_getLogs answered ${typeof raw}, not a list`);
  const decoded = parseEventLogs({
    abi: events as AbiEvent[],
    logs: (raw as RpcLog[]).map((log) => formatLog(log)),
    strict: true,
  });
  return {
    logs: decoded.map((log) => toRangedLog(log as Parameters<typeof toRangedLog>[0])),
    header: { hash: head.hash, timestamp: Number(BigInt(head.timestamp)) },
  };
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
