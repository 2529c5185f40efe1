import { createPublicClient, custom, defineChain, http, numberToHex, type PublicClient } from "viem";

export type PinnedClientParameters = {
  chainId: number;
  rpcUrl: string;
  /** Unix seconds: the client reads the last block at or before this time. */
  time: number;
  /** A block known to be at or before `time`: the search starts there. */
  from: bigint;
};
export type PinnedClientReturnType = { client: PublicClient; blockNumber: bigint };

/**
 * A client that reads a chain as it was at the last block at or before `time`: every "latest" block tag becomes that
 * block, so an ingestion pass sees the day as it ended. Local chains keep all history, so this is exact.
 *
 * @param {@link PinnedClientParameters}
 * @returns the client and the block it is pinned to (the next search can start there).
 */
export async function pinnedClient({
  chainId,
  rpcUrl,
  time,
  from,
}: PinnedClientParameters): Promise<PinnedClientReturnType> {
  const live = createPublicClient({ transport: http(rpcUrl) });
  let low = from;
  let high = await live.getBlockNumber();
  while (low < high) {
    const mid = (low + high + 1n) / 2n;
    if ((await live.getBlock({ blockNumber: mid })).timestamp <= BigInt(time)) low = mid;
    else high = mid - 1n;
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
        if (method === "eth_getBlockByNumber") args[0] = pin(args[0]);
        if (method === "eth_call" || method === "eth_getBalance" || method === "eth_getCode") args[1] = pin(args[1]);
        if (method === "eth_getStorageAt") args[2] = pin(args[2]);
        return live.request({ method, params: args } as never);
      },
    }),
  }) as PublicClient;
  return { client, blockNumber: low };
}
