/**
 * What the demo deploys on each chain: tokens (with a starting USD price), Uniswap V2 pairs (with their
 * starting USD depth) and the Aave v3 reserves, and how each pool behaves over the simulated history. Prices
 * here only size the initial liquidity and the mock oracle; every figure the service publishes is read back
 * from the chain.
 */
export interface DemoTokenSpec {
  symbol: string;
  name: string;
  decimals: number;
  /** Starting price in USD (USDC, the anchor, is 1). */
  priceUsd: number;
}

/** A [min, max) range that the seeded PRNG draws from. */
export type DemoRange = readonly [min: number, max: number];

/**
 * How a pair's liquidity (its LP token supply) moves over the history, on top of the daily swaps. Every pair
 * also wanders a few percent a day around its level (LPs adding and removing).
 */
export type DemoPairActivity =
  /** Blue chip: only the daily wander. */
  | { kind: "steady" }
  /**
   * Whales: on any day, with probability `perDay`, the largest LPs withdraw a `withdrawn` share of the pool's
   * liquidity and bring it back in equal steps over `returnDays` days. No new withdrawal starts before the
   * last one is back.
   */
  | { kind: "whale"; perDay: number; withdrawn: DemoRange; returnDays: DemoRange }
  /** Liquidity mining ended: LPs leave (see {@link DemoDecline}). */
  | ({ kind: "decline" } & DemoDecline);

/**
 * An incentive programme ended `sinceDaysAgo` days before the present (at the latest on the history's second
 * day): from then on liquidity leaves, a `perDay` share of what remains each day, until `floor` × the start is
 * left.
 */
export interface DemoDecline {
  sinceDaysAgo: number;
  perDay: DemoRange;
  floor: number;
}

/** How a lending reserve's demand moves over the history. */
export interface DemoLendingActivity {
  /** Largest daily step of the utilisation random walk (which stays within 20–88 % and reverts to the start). */
  utilizationStep: number;
  /**
   * Borrow spikes: on any day, with probability `perDay`, a large borrower takes utilisation to `peak` for
   * `holdDays` days, then repays in equal steps over `repayDays` days. Exitable liquidity (supplied − borrowed)
   * falls to 3–10 % of the supply while it lasts.
   */
  spikes?: { perDay: number; peak: DemoRange; holdDays: DemoRange; repayDays: DemoRange };
  /** Suppliers leaving after an incentive programme ended: the supply declines. */
  supplyDecline?: DemoDecline;
}

export interface DemoPairSpec {
  base: string;
  quote: string;
  /** Starting depth in USD (both sides together). */
  depthUsd: number;
  activity: DemoPairActivity;
}

export interface DemoLendingSpec {
  symbol: string;
  /** Starting supplied amount in USD. */
  suppliedUsd: number;
  /** Starting utilisation (borrowed / supplied). */
  utilization: number;
  activity: DemoLendingActivity;
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

const STEADY: DemoPairActivity = { kind: "steady" };

/** The three demo chains: Ethereum (1), Arbitrum One (42161), Base (8453). */
export const DEMO_CHAINS: readonly DemoChainSpec[] = [
  {
    chainId: 1,
    tokens: [USDC, WETH, WBTC, { symbol: "LINK", name: "Chainlink (demo)", decimals: 18, priceUsd: 15 }],
    pairs: [
      { base: "WETH", quote: "USDC", depthUsd: 40_000_000, activity: STEADY },
      {
        base: "WBTC",
        quote: "USDC",
        depthUsd: 12_000_000,
        activity: { kind: "whale", perDay: 1 / 30, withdrawn: [0.3, 0.55], returnDays: [2, 6] },
      },
      {
        base: "LINK",
        quote: "WETH",
        depthUsd: 3_000_000,
        activity: { kind: "whale", perDay: 1 / 50, withdrawn: [0.5, 0.7], returnDays: [3, 10] },
      },
    ],
    lending: [
      {
        symbol: "USDC",
        suppliedUsd: 60_000_000,
        utilization: 0.7,
        activity: {
          utilizationStep: 0.04,
          spikes: { perDay: 1 / 45, peak: [0.9, 0.97], holdDays: [1, 3], repayDays: [2, 6] },
        },
      },
      { symbol: "WETH", suppliedUsd: 45_000_000, utilization: 0.45, activity: { utilizationStep: 0.04 } },
    ],
  },
  {
    chainId: 42161,
    tokens: [USDC, WETH, WBTC, { symbol: "ARB", name: "Arbitrum (demo)", decimals: 18, priceUsd: 0.8 }],
    pairs: [
      { base: "WETH", quote: "USDC", depthUsd: 15_000_000, activity: STEADY },
      {
        base: "ARB",
        quote: "USDC",
        depthUsd: 2_500_000,
        activity: { kind: "decline", sinceDaysAgo: 120, perDay: [0.01, 0.02], floor: 0.15 },
      },
      {
        base: "WBTC",
        quote: "WETH",
        depthUsd: 5_000_000,
        activity: { kind: "whale", perDay: 1 / 60, withdrawn: [0.5, 0.7], returnDays: [3, 10] },
      },
    ],
    lending: [
      { symbol: "USDC", suppliedUsd: 20_000_000, utilization: 0.75, activity: { utilizationStep: 0.06 } },
      {
        symbol: "WETH",
        suppliedUsd: 12_000_000,
        utilization: 0.4,
        activity: { utilizationStep: 0.04, supplyDecline: { sinceDaysAgo: 100, perDay: [0.004, 0.01], floor: 0.35 } },
      },
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
      { base: "WETH", quote: "USDC", depthUsd: 9_000_000, activity: STEADY },
      {
        base: "cbETH",
        quote: "WETH",
        depthUsd: 4_000_000,
        activity: { kind: "decline", sinceDaysAgo: 120, perDay: [0.005, 0.015], floor: 0.1 },
      },
      {
        base: "AERO",
        quote: "USDC",
        depthUsd: 1_500_000,
        activity: { kind: "whale", perDay: 1 / 12, withdrawn: [0.55, 0.75], returnDays: [4, 12] },
      },
    ],
    lending: [
      {
        symbol: "USDC",
        suppliedUsd: 10_000_000,
        utilization: 0.8,
        activity: {
          utilizationStep: 0.04,
          spikes: { perDay: 1 / 50, peak: [0.92, 0.97], holdDays: [1, 3], repayDays: [2, 6] },
        },
      },
      { symbol: "WETH", suppliedUsd: 8_000_000, utilization: 0.35, activity: { utilizationStep: 0.12 } },
    ],
  },
];

/** Default length of the simulated history, in days. */
export const DEMO_DEFAULT_DAYS = 120;

/** Registry parameters on chain 1: minimum bond 1 ether, unbonding period 7 days. */
export const DEMO_REGISTRY = { minBond: 10n ** 18n, unbondingPeriodS: 7n * 86_400n } as const;
