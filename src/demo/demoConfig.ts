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

/**
 * How a pair trades each day. Traders' swaps come at random times of the day; each trade's size is a share of the
 * reserve it sells into, drawn log-uniformly from `size` (many small trades, a few large ones) and scaled by the
 * day's market activity on the chain (quiet, normal or busy). A trade that leaves the pair's price more than 1 % off
 * its starting price is followed, at the pair's next swap time, by an arbitrage that brings it back. Every pair
 * swaps at least once every day.
 */
export interface DemoTrading {
  /** Swaps per day (whole numbers, min ≥ 1). */
  swapsPerDay: DemoRange;
  /** One trade's share of the input reserve, before the day's activity factor. */
  size: DemoRange;
}

/** Trading of a pair whose spec does not say otherwise. */
export const DEFAULT_TRADING: DemoTrading = { swapsPerDay: [2, 5], size: [0.001, 0.025] };
/** Trading of the blue-chip WETH-USDC pairs: more and larger trades. */
const BLUE_CHIP: DemoTrading = { swapsPerDay: [3, 6], size: [0.002, 0.04] };

export interface DemoPairSpec {
  base: string;
  quote: string;
  /** Starting depth in USD (both sides together). */
  depthUsd: number;
  activity: DemoPairActivity;
  /** Default {@link DEFAULT_TRADING}. */
  trading?: DemoTrading;
}

/** The AMM venues the demo deploys. */
export type DemoAmmProtocol = "uniswap-v2" | "sushiswap-v2";

/**
 * A second V2 venue on a chain: a separate, independent deployment of the Uniswap V2 factory bytecode
 * (`@uniswap/v2-core`) with its own pairs, labelled with the fork it stands in for. SushiSwap's V2 AMM is a fork of
 * Uniswap V2 core (the same constant-product pair and 0.3 % fee), so `sushiswap-v2` pairs behave as SushiSwap's
 * do; their bytecode is Uniswap's, not SushiSwap's own build. It is deployed by its own account, so the addresses
 * of everything else on the chain do not move.
 */
export interface DemoForkSpec {
  protocol: Exclude<DemoAmmProtocol, "uniswap-v2">;
  pairs: DemoPairSpec[];
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
  /** Uniswap V2 pairs. */
  pairs: DemoPairSpec[];
  /** Aave v3 reserves. */
  lending: DemoLendingSpec[];
  /** Other V2 venues (see {@link DemoForkSpec}). */
  forks?: DemoForkSpec[];
}

/** One pool of a chain's spec with its venue. */
export type DemoPoolSpec =
  | { protocol: DemoAmmProtocol; kind: "amm"; name: string; spec: DemoPairSpec }
  | { protocol: "aave-v3"; kind: "lending"; name: string; spec: DemoLendingSpec };

/**
 * A chain's pools in PRNG-stream order: the Uniswap V2 pairs, the reserves, then the other venues' pairs (pool `i`
 * is planned from stream `1 + i`). Pools added later come last, so the existing pools keep their plans.
 */
export function demoPoolSpecs(chain: DemoChainSpec): DemoPoolSpec[] {
  const pair = (protocol: DemoAmmProtocol) => (spec: DemoPairSpec) =>
    ({ protocol, kind: "amm", name: `${spec.base}-${spec.quote}`, spec }) as const;
  return [
    ...chain.pairs.map(pair("uniswap-v2")),
    ...chain.lending.map((spec) => ({ protocol: "aave-v3", kind: "lending", name: spec.symbol, spec }) as const),
    ...(chain.forks ?? []).flatMap((fork) => fork.pairs.map(pair(fork.protocol))),
  ];
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
      { base: "WETH", quote: "USDC", depthUsd: 40_000_000, activity: STEADY, trading: BLUE_CHIP },
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
    forks: [
      {
        protocol: "sushiswap-v2",
        pairs: [
          {
            base: "WETH",
            quote: "USDC",
            depthUsd: 8_000_000,
            activity: { kind: "whale", perDay: 1 / 40, withdrawn: [0.25, 0.45], returnDays: [2, 5] },
            trading: BLUE_CHIP,
          },
        ],
      },
    ],
  },
  {
    chainId: 42161,
    tokens: [USDC, WETH, WBTC, { symbol: "ARB", name: "Arbitrum (demo)", decimals: 18, priceUsd: 0.8 }],
    pairs: [
      { base: "WETH", quote: "USDC", depthUsd: 15_000_000, activity: STEADY, trading: BLUE_CHIP },
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
    forks: [
      { protocol: "sushiswap-v2", pairs: [{ base: "ARB", quote: "WETH", depthUsd: 3_000_000, activity: STEADY }] },
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
      { base: "WETH", quote: "USDC", depthUsd: 9_000_000, activity: STEADY, trading: BLUE_CHIP },
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

/** Which demo pool: chain, venue and name (`BASE-QUOTE` for a pair, the underlying's symbol for a reserve). */
export interface DemoPoolRef {
  chainId: number;
  protocol: DemoAmmProtocol | "aave-v3";
  name: string;
}

/**
 * A Merkl incentive campaign on a demo pool, as the demo's Merkl feed serves it. Days are whole UTC days relative to
 * the present's UTC day (−12 = twelve days ago at 00:00 UTC, 30 = in thirty days). The feed lists a campaign from its
 * start on (so a campaign that starts during the history appears then), and keeps listing it after its end (as
 * Merkl lists past campaigns).
 */
export interface DemoCampaignSpec extends DemoPoolRef {
  startDay: number;
  endDay: number;
  /** Symbol of one of the chain's demo tokens. */
  rewardToken: string;
  /** Rewards per day in USD (at the token's starting price): sets the amount and the APR. */
  dailyRewardsUsd: number;
}

/**
 * The demo's campaigns. They follow the scripted story: the declines of ARB-USDC, cbETH-WETH and WETH (42161) start
 * when their programmes ended (`sinceDaysAgo` above); LINK-WETH (1) and USDC (8453) end during the history; the
 * SushiSwap pairs and WETH (8453) start during it; WETH-USDC (1) runs two campaigns that end on different dates; the
 * other live ones end 14 to 150 days from now. A campaign end caps the attested horizon (the claim may not reach past
 * it), so the ones ending within 90 days shorten their pools' horizons. AERO-USDC (8453), the pool that stops
 * reporting, has none.
 */
export const DEMO_CAMPAIGNS: readonly DemoCampaignSpec[] = [
  // chain, venue, pool, start day, end day, reward token, rewards per day (USD)
  campaign(1, "uniswap-v2", "WETH-USDC", -60, 21, "LINK", 4_000),
  campaign(1, "uniswap-v2", "WETH-USDC", -8, 45, "LINK", 2_500),
  campaign(1, "uniswap-v2", "LINK-WETH", -75, -6, "LINK", 600),
  campaign(1, "sushiswap-v2", "WETH-USDC", -12, 100, "LINK", 1_500),
  campaign(1, "aave-v3", "USDC", -40, 14, "LINK", 3_000),
  campaign(42161, "uniswap-v2", "WETH-USDC", -25, 120, "ARB", 2_000),
  campaign(42161, "uniswap-v2", "ARB-USDC", -300, -120, "ARB", 1_200),
  campaign(42161, "sushiswap-v2", "ARB-WETH", -5, 60, "ARB", 900),
  campaign(42161, "aave-v3", "USDC", -30, 35, "ARB", 1_800),
  campaign(42161, "aave-v3", "WETH", -250, -100, "ARB", 1_500),
  campaign(8453, "uniswap-v2", "WETH-USDC", -45, 150, "AERO", 1_400),
  campaign(8453, "uniswap-v2", "cbETH-WETH", -300, -120, "AERO", 1_000),
  campaign(8453, "aave-v3", "USDC", -50, -20, "AERO", 800),
  campaign(8453, "aave-v3", "WETH", -3, 28, "AERO", 700),
];

function campaign(
  chainId: number,
  protocol: DemoCampaignSpec["protocol"],
  name: string,
  startDay: number,
  endDay: number,
  rewardToken: string,
  dailyRewardsUsd: number,
): DemoCampaignSpec {
  return { chainId, protocol, name, startDay, endDay, rewardToken, dailyRewardsUsd };
}

/**
 * The pool whose source stops reporting: from `silentDays` days before the present, the demo's endpoint for its chain
 * refuses the pool's reads (every other pool still answers; `silencedRpc.ts`) and the demo's feeds stop listing it.
 * It stays tracked: each pass tries, reports the failure (`chain:<id>`), and leaves the stored values as the last
 * successful pass wrote them, so they age past FRESHNESS_WINDOW_S and the service shows the pool stale and holds it
 * out of totals. On chain the pair goes on trading; nobody reports it.
 */
export const DEMO_STALE_POOL: DemoPoolRef & { silentDays: number } = {
  chainId: 8453,
  protocol: "uniswap-v2",
  name: "AERO-USDC",
  silentDays: 3,
};
