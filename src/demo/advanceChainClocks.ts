import { createPublicClient, http, numberToHex } from "viem";

export type AdvanceChainClocksParameters = {
  rpcUrls: readonly string[];
  /** Unix seconds. Default: the wall clock. */
  now?: number;
};

/**
 * Mines one empty block at the wall-clock time on each local chain whose latest block is older than now (Hardhat's
 * `evm_setNextBlockTimestamp` + `evm_mine`), so that depth read at "latest" is observed now. Never moves a chain
 * backwards, and leaves a chain alone whose latest block is already at or past now.
 *
 * The demo chains mine only when the simulation sends transactions, and it is over once the service serves: without
 * a new block every pass would read the same frozen block, whose timestamp turns stale after FRESHNESS_WINDOW_S.
 *
 * @param {@link AdvanceChainClocksParameters}
 */
export async function advanceChainClocks({
  rpcUrls,
  now = Math.floor(Date.now() / 1000),
}: AdvanceChainClocksParameters): Promise<void> {
  await Promise.all(
    rpcUrls.map(async (rpcUrl) => {
      const client = createPublicClient({ transport: http(rpcUrl) });
      const latest = await client.getBlock({ blockTag: "latest" });
      if (Number(latest.timestamp) >= now) return;
      // Local-chain methods, outside viem's public RPC schema.
      const request = client.request as (args: { method: string; params: unknown[] }) => Promise<unknown>;
      await request({ method: "evm_setNextBlockTimestamp", params: [numberToHex(now)] });
      await request({ method: "evm_mine", params: [] });
    }),
  );
}
