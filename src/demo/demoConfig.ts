/**
 * What the demo deploys on each chain: tokens (with a starting USD price), Uniswap V2 pairs (with their
 * starting USD depth) and the Aave v3 reserves. Prices here only size the initial liquidity and the mock
 * oracle; every figure the service publishes is read back from the chain.
 */
export interface DemoTokenSpec {
  symbol: string;
  name: string;
  decimals: number;
  /** Starting price in USD (USDC, the anchor, is 1). */
  priceUsd: number;
}

export interface DemoPairSpec {
  base: string;
  quote: string;
  /** Starting depth in USD (both sides together). */
  depthUsd: number;
}

export interface DemoLendingSpec {
  symbol: string;
  /** Starting supplied amount in USD. */
  suppliedUsd: number;
  /** Starting utilisation (borrowed / supplied). */
  utilization: number;
}

export interface DemoChainSpec {
  chainId: number;
  tokens: DemoTokenSpec[];
  pairs: DemoPairSpec[];
  lending: DemoLendingSpec[];
}

const USDC: DemoTokenSpec = { symbol: "USDC", name: "USD Coin (demo)", decimals: 6, priceUsd: 1 };
const WETH: DemoTokenSpec = { symbol: "WETH", name: "Wrapped Ether (demo)", decimals: 18, priceUsd: 3000 };
const WBTC: DemoTokenSpec = { symbol: "WBTC", name: "Wrapped BTC (demo)", decimals: 8, priceUsd: 60000 };

/** The three demo chains: Ethereum (1), Arbitrum One (42161), Base (8453). */
export const DEMO_CHAINS: readonly DemoChainSpec[] = [
  {
    chainId: 1,
    tokens: [USDC, WETH, WBTC, { symbol: "LINK", name: "Chainlink (demo)", decimals: 18, priceUsd: 15 }],
    pairs: [
      { base: "WETH", quote: "USDC", depthUsd: 40_000_000 },
      { base: "WBTC", quote: "USDC", depthUsd: 12_000_000 },
      { base: "LINK", quote: "WETH", depthUsd: 3_000_000 },
    ],
    lending: [
      { symbol: "USDC", suppliedUsd: 60_000_000, utilization: 0.7 },
      { symbol: "WETH", suppliedUsd: 45_000_000, utilization: 0.45 },
    ],
  },
  {
    chainId: 42161,
    tokens: [USDC, WETH, WBTC, { symbol: "ARB", name: "Arbitrum (demo)", decimals: 18, priceUsd: 0.8 }],
    pairs: [
      { base: "WETH", quote: "USDC", depthUsd: 15_000_000 },
      { base: "ARB", quote: "USDC", depthUsd: 2_500_000 },
      { base: "WBTC", quote: "WETH", depthUsd: 5_000_000 },
    ],
    lending: [
      { symbol: "USDC", suppliedUsd: 20_000_000, utilization: 0.75 },
      { symbol: "WETH", suppliedUsd: 12_000_000, utilization: 0.4 },
    ],
  },
  {
    chainId: 8453,
    tokens: [
      USDC,
      WETH,
      { symbol: "cbETH", name: "Coinbase Wrapped Staked ETH (demo)", decimals: 18, priceUsd: 3300 },
      { symbol: "AERO", name: "Aerodrome (demo)", decimals: 18, priceUsd: 1.2 },
    ],
    pairs: [
      { base: "WETH", quote: "USDC", depthUsd: 9_000_000 },
      { base: "cbETH", quote: "WETH", depthUsd: 4_000_000 },
      { base: "AERO", quote: "USDC", depthUsd: 1_500_000 },
    ],
    lending: [
      { symbol: "USDC", suppliedUsd: 10_000_000, utilization: 0.8 },
      { symbol: "WETH", suppliedUsd: 8_000_000, utilization: 0.35 },
    ],
  },
];

/** Default length of the simulated history, in days. */
export const DEMO_DEFAULT_DAYS = 120;

/** Registry parameters on chain 1: minimum bond 1 ether, unbonding period 7 days. */
export const DEMO_REGISTRY = { minBond: 10n ** 18n, unbondingPeriodS: 7n * 86_400n } as const;
