import { getAddress, type Address } from "viem";
import type { AaveMarket } from "../chain/aaveV3";
import { uniswapV2Artifact } from "../chain/artifacts";
import type { ChainDriver } from "../chain/chainDriver";
import { LOCAL_CHAIN_ACCOUNTS, type LocalChain } from "../chain/startLocalChain";
import type { DemoToken } from "../chain/uniswapV2";
import { DemoChainError } from "../errors/chain";
import type { DemoAmmProtocol, DemoChainSpec, DemoPairSpec, DemoPoolRef, DemoTrading } from "./demoConfig";
import type { DemoPoolPlan } from "./planDemoPool";
import type { Prng } from "./prng";

/** What one demo chain holds while the demo runs: set up by `setupDemoChain.ts`, played by `simulateDay.ts`. */

/** A pool the demo deployed. */
export interface DemoPool {
  chainId: number;
  /** AMM: the pair. Lending: the reserve's aToken. */
  address: Address;
  kind: "amm" | "lending";
  /** The venue: `uniswap-v2`, `sushiswap-v2` (Uniswap V2 bytecode standing in for the fork; see `DemoForkSpec`) or `aave-v3`. */
  protocol: DemoAmmProtocol | "aave-v3";
  /** AMM: `BASE-QUOTE` (e.g. `WETH-USDC`). Lending: the underlying's symbol. */
  symbol: string;
  /** AMM: the pair's token0 and token1. Lending: the underlying asset. */
  underlying: Address[];
  /** Aave Pool (lending only). */
  lendingPool?: Address;
}

export interface PairState {
  spec: DemoPairSpec;
  protocol: DemoAmmProtocol;
  trading: DemoTrading;
  address: Address;
  token0: Address;
  token1: Address;
  symbol: string;
  lps: Address[];
  /** Starting price of token0 in token1 (reserve1 / reserve0): arbitrage pulls towards it. */
  referencePrice: number;
  /** LP token supply after the starting deposits: the plan's liquidity is relative to it. */
  startLiquidity: bigint;
  plan: DemoPoolPlan;
}

export interface ReserveState {
  symbol: string;
  token: DemoToken;
  aToken: Address;
  variableDebtToken: Address;
  /** aToken supply after the starting deposit: the plan's liquidity is relative to it. */
  startSupplied: bigint;
  plan: DemoPoolPlan;
}

export interface ChainState {
  spec: DemoChainSpec;
  chain: LocalChain;
  driver: ChainDriver;
  rng: Prng;
  tokens: Record<string, DemoToken>;
  /** Every venue's factory, by protocol. */
  factories: Partial<Record<DemoAmmProtocol, Address>>;
  /** The pairs of every venue: Uniswap V2's first, then the forks'. */
  pairs: PairState[];
  market: AaveMarket;
  reserves: ReserveState[];
}

// Roles among the funded genesis accounts (index into LOCAL_CHAIN_ACCOUNTS).
export const ADMIN = LOCAL_CHAIN_ACCOUNTS[0].address;
export const LPS = [1, 2, 3].map((i) => LOCAL_CHAIN_ACCOUNTS[i].address);
export const TRADERS = [4, 5].map((i) => LOCAL_CHAIN_ACCOUNTS[i].address);
export const SUPPLIER = LOCAL_CHAIN_ACCOUNTS[6].address;
export const BORROWER = LOCAL_CHAIN_ACCOUNTS[7].address;
/** Deploys the fork venues' factories and pairs (so ADMIN's nonces, hence every other address, stay as they were). */
export const FORK_DEPLOYER = LOCAL_CHAIN_ACCOUNTS[8].address;
/** Brings a pair's price back towards its starting price after a large trade (arbitrage against other venues). */
export const ARBITRAGEUR = LOCAL_CHAIN_ACCOUNTS[9].address;

/** a / b as a float, for steering the simulation only (never for a published figure). */
export function ratio(a: bigint, b: bigint): number {
  return Number((a * 10n ** 18n) / b) / 1e18;
}

/** Whole-token USD amount → base units of a token priced at `priceUsd`. */
export function usdToUnits(usd: number, priceUsd: number, decimals: number): bigint {
  const micro = BigInt(Math.floor((usd / priceUsd) * 1e6));
  return (micro * 10n ** BigInt(decimals)) / 1_000_000n;
}

/** `amount · fraction` for a float fraction, in base units (rounded down to 1e-9 of the amount). */
export function fractionOf(amount: bigint, fraction: number): bigint {
  return (amount * BigInt(Math.floor(fraction * 1e9))) / 1_000_000_000n;
}

/** A pair's LP token supply. */
export async function lpTotalSupply(driver: ChainDriver, pair: Address): Promise<bigint> {
  return driver.read<bigint>({
    address: pair,
    abi: uniswapV2Artifact("UniswapV2Pair").abi,
    functionName: "totalSupply",
  });
}

/** The pools one chain holds, as `startDemoChains` returns them. */
export function listDemoPools(state: ChainState): DemoPool[] {
  const chainId = state.spec.chainId;
  return [
    ...state.pairs.map((p) => ({
      chainId,
      address: getAddress(p.address),
      kind: "amm" as const,
      protocol: p.protocol,
      symbol: p.symbol,
      underlying: [getAddress(p.token0), getAddress(p.token1)],
    })),
    ...state.reserves.map((r) => ({
      chainId,
      address: getAddress(r.aToken),
      kind: "lending" as const,
      protocol: "aave-v3" as const,
      symbol: r.symbol,
      underlying: [getAddress(r.token.address)],
      lendingPool: getAddress(state.market.pool),
    })),
  ];
}

/**
 * The demo pool a config entry names (chain, venue, `BASE-QUOTE` or the underlying's symbol). Throws `DemoChainError`
 * when there is none.
 */
export function findDemoPool(pools: readonly DemoPool[], ref: DemoPoolRef): DemoPool {
  const pool = pools.find((p) => p.chainId === ref.chainId && p.protocol === ref.protocol && p.symbol === ref.name);
  if (!pool) throw new DemoChainError(`no demo pool ${ref.name} (${ref.protocol}) on chain ${ref.chainId}`);
  return pool;
}
