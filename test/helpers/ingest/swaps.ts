import { createPublicClient, custom, numberToHex, type PublicClient } from "viem";
import { uniswapV2Artifact } from "../../../src/chain/artifacts";
import { LOCAL_CHAIN_ACCOUNTS } from "../../../src/chain/startLocalChain";
import { mintToken, readPair } from "../../../src/chain/uniswapV2";
import { getAmountOut } from "../../../src/model/pairMath";
import type { LocalMarket } from "./localMarket";

/** One swap sent by {@link swapAt}: what went in, at which block time. */
export interface SentSwap {
  /** The time of the block holding the `Swap` log (the token transfer's block is one second earlier). */
  time: number;
  token: "usdc" | "weth";
  /** Base units in. */
  amountIn: bigint;
}

/**
 * Swaps `amount` whole tokens into the market's pair with the `Swap` log in a block at exactly `time` (the input's
 * transfer is mined one second before).
 */
export async function swapAt(
  market: LocalMarket,
  parameters: { time: number; token: "usdc" | "weth"; amount: number },
): Promise<SentSwap> {
  const { time, token, amount } = parameters;
  const tokenIn = token === "usdc" ? market.usdc : market.weth;
  const amountIn = BigInt(Math.round(amount * 1e6)) * 10n ** BigInt(tokenIn.decimals - 6);
  const from = LOCAL_CHAIN_ACCOUNTS[3].address;
  const { driver, pair } = market;
  const { token0, reserve0, reserve1 } = await readPair(driver, pair);
  const zeroForOne = tokenIn.address.toLowerCase() === token0.toLowerCase();
  const amountOut = getAmountOut({
    amountIn,
    reserveIn: zeroForOne ? reserve0 : reserve1,
    reserveOut: zeroForOne ? reserve1 : reserve0,
  });
  await driver.request("evm_setNextBlockTimestamp", [numberToHex(time - 1)]);
  await mintToken(driver, from, tokenIn.address, pair, amountIn);
  await driver.request("evm_setNextBlockTimestamp", [numberToHex(time)]);
  await driver.write({
    from,
    address: pair,
    abi: uniswapV2Artifact("UniswapV2Pair").abi,
    functionName: "swap",
    args: zeroForOne ? [0n, amountOut, from, "0x"] : [amountOut, 0n, from, "0x"],
  });
  return { time, token, amountIn };
}

/** A client that forwards everything to `client` but fails every request of the given methods. */
export function failingClient(client: PublicClient, methods: readonly string[]): PublicClient {
  return createPublicClient({
    transport: custom(
      {
        async request({ method, params }: { method: string; params?: unknown }) {
          if (methods.includes(method)) throw new Error(`${method} refused by the test`);
          return client.request({ method, params } as never);
        },
      },
      { retryCount: 0 },
    ),
  }) as PublicClient;
}

/** A client that counts requests per method. */
export function countingClient(client: PublicClient): { client: PublicClient; counts: Map<string, number> } {
  const counts = new Map<string, number>();
  const counted = createPublicClient({
    transport: custom(
      {
        async request({ method, params }: { method: string; params?: unknown }) {
          counts.set(method, (counts.get(method) ?? 0) + 1);
          return client.request({ method, params } as never);
        },
      },
      { retryCount: 0 },
    ),
  }) as PublicClient;
  return { client: counted, counts };
}
