import { createPublicClient, http, type Address, type PublicClient } from "viem";
import { deployAaveV3Market, aaveSupply, aaveBorrow } from "../../../src/chain/aaveV3";
import { createChainDriver, type ChainDriver } from "../../../src/chain/chainDriver";
import { deployMulticall3 } from "../../../src/chain/multicall3";
import { LOCAL_CHAIN_ACCOUNTS, startLocalChain, type LocalChain } from "../../../src/chain/startLocalChain";
import {
  addLiquidity,
  createPair,
  deployToken,
  deployUniswapV2Factory,
  readPair,
  removeLiquidity,
  lpBalance,
  type DemoToken,
} from "../../../src/chain/uniswapV2";
import type { PoolConfig } from "../../../src/model/poolConfig";

/**
 * A real local chain (EDR behind loopback JSON-RPC) with a Uniswap V2 USDC/WETH pair (≈ $2M deep at $2000/WETH)
 * and, optionally, an Aave v3 USDC reserve with supply and borrow, from the protocols' npm bytecode.
 */
export interface LocalMarket {
  chain: LocalChain;
  client: PublicClient;
  driver: ChainDriver;
  usdc: DemoToken;
  weth: DemoToken;
  pair: Address;
  pools: PoolConfig[];
  /** Removes `fraction` of the deployer's LP tokens (depth falls by about that fraction). */
  removeLiquidity(fraction: number): Promise<void>;
  /** Adds liquidity at the current price, `usdc` whole USDC worth per side. */
  addLiquidity(usdc: number): Promise<void>;
  /** Mines an empty block at `time` (chain time moves forward). */
  mineAt(time: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startLocalMarket(parameters: {
  chainId?: number;
  genesisTime: number;
  lending?: boolean;
}): Promise<LocalMarket> {
  const chainId = parameters.chainId ?? 1;
  const chain = await startLocalChain({ chainId, genesisTime: parameters.genesisTime });
  const driver = createChainDriver({ chainId, provider: chain.provider });
  const admin = LOCAL_CHAIN_ACCOUNTS[0].address;
  await deployMulticall3(driver, admin); // readPools uses the canonical Multicall3, as on the real chains
  const usdc = await deployToken(driver, admin, { name: "USD Coin", symbol: "USDC", decimals: 6 });
  const weth = await deployToken(driver, admin, { name: "Wrapped Ether", symbol: "WETH", decimals: 18 });
  const factory = await deployUniswapV2Factory(driver, admin);
  const pair = await createPair(driver, admin, factory, usdc.address, weth.address);
  const add = async (usdcWhole: number) => {
    const { token0, reserve0, reserve1 } = await readPair(driver, pair);
    const usdcIs0 = token0.toLowerCase() === usdc.address.toLowerCase();
    const usdcAmount = BigInt(usdcWhole) * 10n ** 6n;
    const rUsdc = usdcIs0 ? reserve0 : reserve1;
    const rWeth = usdcIs0 ? reserve1 : reserve0;
    const wethAmount = rUsdc === 0n ? (usdcAmount * 10n ** 12n) / 2000n : (usdcAmount * rWeth) / rUsdc;
    await addLiquidity(driver, {
      from: admin,
      pair,
      token0,
      amount0: usdcIs0 ? usdcAmount : wethAmount,
      token1: usdcIs0 ? weth.address : usdc.address,
      amount1: usdcIs0 ? wethAmount : usdcAmount,
    });
  };
  await add(1_000_000);
  const pools: PoolConfig[] = [
    { chainId, address: pair.toLowerCase() as Address, kind: "amm", symbol: "USDC-WETH", protocol: "uniswap-v2" },
  ];
  if (parameters.lending) {
    const market = await deployAaveV3Market(driver, {
      admin,
      reserves: [
        {
          token: usdc,
          priceUsd8: 100_000_000n,
          ltvBps: 8000,
          liquidationThresholdBps: 8500,
          liquidationBonusBps: 10500,
          reserveFactorBps: 1000,
        },
        {
          token: weth,
          priceUsd8: 200_000_000_000n,
          ltvBps: 8000,
          liquidationThresholdBps: 8250,
          liquidationBonusBps: 10500,
          reserveFactorBps: 1000,
        },
      ],
    });
    const user = LOCAL_CHAIN_ACCOUNTS[1].address;
    await aaveSupply(driver, market, { user: admin, asset: usdc.address, amount: 500_000n * 10n ** 6n });
    await aaveSupply(driver, market, { user, asset: weth.address, amount: 100n * 10n ** 18n });
    await aaveBorrow(driver, market, { user, asset: usdc.address, amount: 100_000n * 10n ** 6n });
    const reserve = market.reserves[usdc.address.toLowerCase()];
    pools.push({
      chainId,
      address: reserve.aToken.toLowerCase() as Address,
      kind: "lending",
      symbol: "USDC",
      protocol: "aave-v3",
      lendingPool: market.pool.toLowerCase() as Address,
      underlying: usdc.address.toLowerCase() as Address,
    });
  }
  const client = createPublicClient({ transport: http(chain.rpcUrl) }) as PublicClient;
  return {
    chain,
    client,
    driver,
    usdc,
    weth,
    pair,
    pools,
    async removeLiquidity(fraction: number) {
      const balance = await lpBalance(driver, pair, admin);
      const liquidity = (balance * BigInt(Math.round(fraction * 1e6))) / 1_000_000n;
      await removeLiquidity(driver, { from: admin, pair, liquidity });
    },
    addLiquidity: add,
    mineAt: (time: number) => driver.mineAt(time),
    stop: () => chain.stop(),
  };
}
