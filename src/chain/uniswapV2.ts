import type { Address } from "viem";
import { aaveArtifact, uniswapV2Artifact } from "./artifacts";
import type { ChainDriver } from "./chainDriver";
import { multicallWrite } from "./multicall3";
import { getAmountOut } from "../model/pairMath";

/** An ERC-20 deployed for the demo (Aave's `MintableERC20` mock: any decimals, open `mint`). */
export interface DemoToken {
  address: Address;
  symbol: string;
  decimals: number;
}

/**
 * Deploys an ERC-20 with the given decimals. Uniswap v2-core's own test `ERC20` is fixed at 18 decimals, so
 * the demo uses `MintableERC20` from `@aave/core-v3` (real package bytecode) for every token, which lets the
 * USD anchor have 6 decimals like USDC.
 */
export async function deployToken(
  driver: ChainDriver,
  from: Address,
  token: { name: string; symbol: string; decimals: number },
): Promise<DemoToken> {
  const address = await driver.deploy({
    from,
    artifact: aaveArtifact("MintableERC20"),
    args: [token.name, token.symbol, token.decimals],
  });
  return { address, symbol: token.symbol, decimals: token.decimals };
}

/** Mints `amount` base units of `token` to `to` (the mock's open `mint(address,uint256)`). */
export async function mintToken(driver: ChainDriver, from: Address, token: Address, to: Address, amount: bigint) {
  await driver.write({
    from,
    address: token,
    abi: aaveArtifact("MintableERC20").abi,
    functionName: "mint",
    args: [to, amount],
  });
}

/** Deploys `UniswapV2Factory` from `@uniswap/v2-core` with `feeToSetter = from`. */
export async function deployUniswapV2Factory(driver: ChainDriver, from: Address): Promise<Address> {
  return driver.deploy({ from, artifact: uniswapV2Artifact("UniswapV2Factory"), args: [from] });
}

/** `factory.createPair(a, b)` and returns the pair's address. */
export async function createPair(
  driver: ChainDriver,
  from: Address,
  factory: Address,
  tokenA: Address,
  tokenB: Address,
): Promise<Address> {
  const abi = uniswapV2Artifact("UniswapV2Factory").abi;
  await driver.write({ from, address: factory, abi, functionName: "createPair", args: [tokenA, tokenB] });
  return driver.read<Address>({ address: factory, abi, functionName: "getPair", args: [tokenA, tokenB] });
}

/** A pair's reserves and sorted tokens. */
export async function readPair(driver: ChainDriver, pair: Address) {
  const abi = uniswapV2Artifact("UniswapV2Pair").abi;
  const [reserve0, reserve1] = await driver.read<readonly [bigint, bigint, number]>({
    address: pair,
    abi,
    functionName: "getReserves",
  });
  const token0 = await driver.read<Address>({ address: pair, abi, functionName: "token0" });
  const token1 = await driver.read<Address>({ address: pair, abi, functionName: "token1" });
  return { token0, token1, reserve0, reserve1 };
}

/**
 * Adds liquidity the way the router would, without a router (v2-core has none): the provider's tokens
 * arrive at the pair (minted there directly by the open mock token), then `pair.mint(provider)` issues LP tokens.
 */
export async function addLiquidity(
  driver: ChainDriver,
  args: { from: Address; pair: Address; token0: Address; amount0: bigint; token1: Address; amount1: bigint },
): Promise<void> {
  await mintToken(driver, args.from, args.token0, args.pair, args.amount0);
  await mintToken(driver, args.from, args.token1, args.pair, args.amount1);
  await driver.write({
    from: args.from,
    address: args.pair,
    abi: uniswapV2Artifact("UniswapV2Pair").abi,
    functionName: "mint",
    args: [args.from],
  });
}

/** Removes `liquidity` LP tokens held by `from`: transfer them to the pair, then `pair.burn(from)`. */
export async function removeLiquidity(
  driver: ChainDriver,
  args: { from: Address; pair: Address; liquidity: bigint },
): Promise<void> {
  const abi = uniswapV2Artifact("UniswapV2Pair").abi;
  await driver.write({
    from: args.from,
    address: args.pair,
    abi,
    functionName: "transfer",
    args: [args.pair, args.liquidity],
  });
  await driver.write({ from: args.from, address: args.pair, abi, functionName: "burn", args: [args.from] });
}

/** LP token balance of `owner`. */
export async function lpBalance(driver: ChainDriver, pair: Address, owner: Address): Promise<bigint> {
  return driver.read<bigint>({
    address: pair,
    abi: uniswapV2Artifact("UniswapV2Pair").abi,
    functionName: "balanceOf",
    args: [owner],
  });
}

/**
 * Swaps an exact `amountIn` of `tokenIn` through the pair: the input reaches the pair, then `pair.swap` pays
 * out the amount the invariant allows (x·y = k with the 0.3 % fee, {@link getAmountOut}). Returns the output.
 */
export async function swapExactIn(
  driver: ChainDriver,
  args: { from: Address; pair: Address; tokenIn: Address; amountIn: bigint },
): Promise<bigint> {
  const { token0, reserve0, reserve1 } = await readPair(driver, args.pair);
  const zeroForOne = args.tokenIn.toLowerCase() === token0.toLowerCase();
  const amountOut = getAmountOut({
    amountIn: args.amountIn,
    reserveIn: zeroForOne ? reserve0 : reserve1,
    reserveOut: zeroForOne ? reserve1 : reserve0,
  });
  if (amountOut === 0n) return 0n;
  await mintToken(driver, args.from, args.tokenIn, args.pair, args.amountIn);
  await driver.write({
    from: args.from,
    address: args.pair,
    abi: uniswapV2Artifact("UniswapV2Pair").abi,
    functionName: "swap",
    args: zeroForOne ? [0n, amountOut, args.from, "0x"] : [amountOut, 0n, args.from, "0x"],
  });
  return amountOut;
}

/** A pair's reserves (one call; {@link readPair} also reads the tokens). */
export async function getReserves(driver: ChainDriver, pair: Address): Promise<{ reserve0: bigint; reserve1: bigint }> {
  const [reserve0, reserve1] = await driver.read<readonly [bigint, bigint, number]>({
    address: pair,
    abi: uniswapV2Artifact("UniswapV2Pair").abi,
    functionName: "getReserves",
  });
  return { reserve0, reserve1 };
}

/**
 * Swaps an exact `amountIn` in ONE transaction, as a router would: through Multicall3 ({@link multicallWrite}), the
 * input reaches the pair (minted there by the open mock token, standing in for the trader's balance) and `pair.swap`
 * pays the invariant's output ({@link getAmountOut}) to `from`. The pair's `Swap` event names Multicall3 as `sender`
 * (where a router would be) and `from` as `to`. `reserve0`/`reserve1` are the pair's current reserves (the caller
 * knows them; nothing is read). Returns the output, or 0 without sending anything when the input buys nothing.
 */
export async function swapViaMulticall(
  driver: ChainDriver,
  args: {
    from: Address;
    pair: Address;
    token0: Address;
    token1: Address;
    zeroForOne: boolean;
    amountIn: bigint;
    reserve0: bigint;
    reserve1: bigint;
  },
): Promise<bigint> {
  const { zeroForOne, amountIn } = args;
  const amountOut = getAmountOut({
    amountIn,
    reserveIn: zeroForOne ? args.reserve0 : args.reserve1,
    reserveOut: zeroForOne ? args.reserve1 : args.reserve0,
  });
  if (amountOut === 0n) return 0n;
  await multicallWrite(driver, args.from, [
    {
      address: zeroForOne ? args.token0 : args.token1,
      abi: aaveArtifact("MintableERC20").abi,
      functionName: "mint",
      args: [args.pair, amountIn],
    },
    {
      address: args.pair,
      abi: uniswapV2Artifact("UniswapV2Pair").abi,
      functionName: "swap",
      args: zeroForOne ? [0n, amountOut, args.from, "0x"] : [amountOut, 0n, args.from, "0x"],
    },
  ]);
  return amountOut;
}

/**
 * {@link addLiquidity} in ONE transaction through Multicall3: both tokens reach the pair, then `pair.mint(from)`
 * issues the LP tokens to `from`.
 */
export async function addLiquidityViaMulticall(
  driver: ChainDriver,
  args: { from: Address; pair: Address; token0: Address; amount0: bigint; token1: Address; amount1: bigint },
): Promise<void> {
  const erc20 = aaveArtifact("MintableERC20").abi;
  await multicallWrite(driver, args.from, [
    { address: args.token0, abi: erc20, functionName: "mint", args: [args.pair, args.amount0] },
    { address: args.token1, abi: erc20, functionName: "mint", args: [args.pair, args.amount1] },
    { address: args.pair, abi: uniswapV2Artifact("UniswapV2Pair").abi, functionName: "mint", args: [args.from] },
  ]);
}
