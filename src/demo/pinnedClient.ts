import {
  createPublicClient,
  custom,
  defineChain,
  http,
  isHex,
  numberToHex,
  type Address,
  type PublicClient,
} from "viem";
import { DemoChainError } from "../errors/chain";
import { silencing, type RpcRequest } from "./silencedRpc";

export type PinnedClientParameters = {
  chainId: number;
  rpcUrl: string;
  /** The block to read at, when known (the demo's day ends are). Else the last block at or before `time`. */
  blockNumber?: bigint;
  /** Unix seconds: without `blockNumber`, the client reads the last block at or before this time. */
  time?: number;
  /** A block known to be at or before `time`: the search starts there. Default 0. */
  from?: bigint;
  /** A contract the endpoint stops answering for ({@link silencing}); default none. */
  silenced?: () => Address | null;
};
export type PinnedClientReturnType = { client: PublicClient; blockNumber: bigint };

/**
 * A client that reads a chain as it was at `blockNumber`, or at the last block at or before `time`: every "latest"
 * block tag becomes that block, so an ingestion pass sees the day as it ended, and later blocks do not exist (`eth_getBlockByNumber` gives
 * null for them; `eth_getLogs` stops at the pinned block). Local chains keep all history, so this is exact.
 *
 * @param {@link PinnedClientParameters}
 * @returns the client and the block it is pinned to (the next search can start there).
 */
export async function pinnedClient({
  chainId,
  rpcUrl,
  blockNumber,
  time,
  from = 0n,
  silenced = () => null,
}: PinnedClientParameters): Promise<PinnedClientReturnType> {
  const live = createPublicClient({ transport: http(rpcUrl) });
  const forward = silencing(live.request as RpcRequest, silenced);
  let low = from;
  if (blockNumber !== undefined) low = blockNumber;
  else if (time === undefined) throw new DemoChainError("pinnedClient needs a blockNumber or a time");
  else {
    let high = await live.getBlockNumber();
    while (low < high) {
      const mid = (low + high + 1n) / 2n;
      if ((await live.getBlock({ blockNumber: mid })).timestamp <= BigInt(time)) low = mid;
      else high = mid - 1n;
    }
  }
  const block = numberToHex(low);
  const tags = new Set(["latest", "pending", "safe", "finalized"]);
  const pin = (tag: unknown) => (tag === undefined || (typeof tag === "string" && tags.has(tag)) ? block : tag);
  const chain = defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const client = createPublicClient({
    chain,
    transport: custom({
      async request({ method, params }: { method: string; params?: unknown[] }) {
        const args = [...(params ?? [])];
        if (method === "eth_blockNumber") return block;
        if (method === "eth_getBlockByNumber") {
          // Blocks after the pinned one do not exist yet.
          if (typeof args[0] === "string" && isHex(args[0]) && BigInt(args[0]) > low) return null;
          args[0] = pin(args[0]);
        }
        if (["eth_call", "eth_getBalance", "eth_getCode", "eth_getTransactionCount"].includes(method)) {
          args[1] = pin(args[1]);
        }
        if (method === "eth_getStorageAt") args[2] = pin(args[2]);
        if (method === "eth_getLogs") {
          const filter = pinLogFilter(args[0] as LogFilter, low);
          if (filter === null) return [];
          args[0] = filter;
        }
        return forward({ method, params: args });
      },
    }),
  }) as PublicClient;
  return { client, blockNumber: low };
}

/** An `eth_getLogs` filter (block range or block hash). */
type LogFilter = { fromBlock?: string; toBlock?: string; blockHash?: string; [key: string]: unknown };

/**
 * The filter with its range cut at `pinned`: a tag (latest, safe, …) or a later block becomes the pinned block. Null
 * when the range starts after it (no logs yet).
 */
export function pinLogFilter(filter: LogFilter, pinned: bigint): LogFilter | null {
  if (filter.blockHash !== undefined) return filter;
  const number = (tag: string | undefined, fallback: bigint) =>
    tag === undefined ? fallback : isHex(tag) ? BigInt(tag) : tag === "earliest" ? 0n : pinned;
  const from = number(filter.fromBlock, pinned);
  const to = number(filter.toBlock, pinned);
  if (from > pinned) return null;
  return { ...filter, fromBlock: numberToHex(from), toBlock: numberToHex(to < pinned ? to : pinned) };
}
