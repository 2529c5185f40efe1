import { getAddress, isHex, type Address, type Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { aaveArtifact, hardhatArtifact, uniswapV2Artifact } from "../chain/artifacts";
import { createChainDriver, type ChainDriver } from "../chain/chainDriver";
import { deployMulticall3 } from "../chain/multicall3";
import { DemoChainError } from "../errors/chain";
import { LOCAL_CHAIN_ACCOUNTS, startLocalChain, type LocalChain } from "../chain/startLocalChain";
import {
  addLiquidity,
  createPair,
  deployToken,
  deployUniswapV2Factory,
  lpBalance,
  readPair,
  removeLiquidity,
  swapExactIn,
  type DemoToken,
} from "../chain/uniswapV2";
import { aaveBorrow, aaveRepay, aaveSupply, aaveWithdraw, deployAaveV3Market, type AaveMarket } from "../chain/aaveV3";
import {
  DEMO_CHAINS,
  DEMO_REGISTRY,
  type DemoChainSpec,
  type DemoDecline,
  type DemoLendingSpec,
  type DemoPairSpec,
  type DemoRange,
} from "./demoConfig";
import { createPrng, type Prng } from "./prng";

const DAY_S = 86_400;

/** A pool the demo deployed. */
export interface DemoPool {
  chainId: number;
  /** AMM: the pair. Lending: the reserve's aToken. */
  address: Address;
  kind: "amm" | "lending";
  protocol: "uniswap-v2" | "aave-v3";
  /** AMM: `BASE-QUOTE` (e.g. `WETH-USDC`). Lending: the underlying's symbol. */
  symbol: string;
  /** AMM: the pair's token0 and token1. Lending: the underlying asset. */
  underlying: Address[];
  /** Aave Pool (lending only). */
  lendingPool?: Address;
}

export interface DemoChains {
  chains: { chainId: number; rpcUrl: string }[];
  pools: DemoPool[];
  registry: { chainId: number; address: Address };
  /** Per chain: the USD anchor (USDC, 6 decimals) and the other tokens, by symbol. */
  tokens: Record<number, Record<string, DemoToken>>;
  /** Transactions sent and wall-clock milliseconds, setup and history together. */
  stats: { transactions: number; elapsedMs: number; setupMs: number };
  /** Stops every chain (nothing is left running). */
  stop(): Promise<void>;
}

/** What `onDay` receives after each simulated day. */
export interface DemoDay {
  /** 0 … days − 1. */
  index: number;
  /** Chain time at the end of the day (the latest block's timestamp, the largest over the chains), Unix seconds. */
  time: number;
  /** Per chain: the last block of the day, so a pass can pin its reads to it. */
  blocks: { chainId: number; blockNumber: bigint; time: number }[];
  /** The chains and pools, already usable during the history (the same as the returned `DemoChains`). */
  chains: { chainId: number; rpcUrl: string }[];
  pools: DemoPool[];
}

export type StartDemoChainsParameters = {
  /** Days of simulated history; the last one ends at the present. At least 1. */
  days: number;
  /** PRNG seed: the same seed gives the same addresses and activity. Default 1. */
  seed?: number;
  /** The attester's key: it is funded and registered in the AttestationRegistry on chain 1. */
  attesterPrivateKey: Hex;
  log: (line: string) => void;
  /** Awaited after each simulated day on all chains (the caller runs an ingestion pass here). */
  onDay?: (day: DemoDay) => Promise<void>;
  /** Wall clock in Unix seconds (tests may pin it). Default `Date.now()`. */
  now?: () => number;
};

export type StartDemoChainsReturnType = DemoChains;
export type StartDemoChainsErrorType = DemoChainError;

interface PairState {
  spec: DemoPairSpec;
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

interface ReserveState {
  symbol: string;
  token: DemoToken;
  aToken: Address;
  variableDebtToken: Address;
  /** aToken supply after the starting deposit: the plan's liquidity is relative to it. */
  startSupplied: bigint;
  plan: DemoPoolPlan;
}

interface ChainState {
  spec: DemoChainSpec;
  chain: LocalChain;
  driver: ChainDriver;
  rng: Prng;
  tokens: Record<string, DemoToken>;
  pairs: PairState[];
  market: AaveMarket;
  reserves: ReserveState[];
}

// Roles among the funded genesis accounts (index into LOCAL_CHAIN_ACCOUNTS).
const ADMIN = LOCAL_CHAIN_ACCOUNTS[0].address;
const LPS = [1, 2, 3].map((i) => LOCAL_CHAIN_ACCOUNTS[i].address);
const TRADERS = [4, 5].map((i) => LOCAL_CHAIN_ACCOUNTS[i].address);
const SUPPLIER = LOCAL_CHAIN_ACCOUNTS[6].address;
const BORROWER = LOCAL_CHAIN_ACCOUNTS[7].address;

/**
 * Starts the three demo chains (1, 42161, 8453) with their genesis `days` days ago, deploys real Uniswap V2
 * pairs and an Aave v3 market on each from npm bytecode, the AttestationRegistry on chain 1 with the attester
 * registered, then replays `days` days of seeded activity (swaps, liquidity moves, supplies, borrows), moving
 * chain time a day at a time and awaiting `onDay` after each. The last day ends at the present, so chain time
 * and wall-clock time agree while serving.
 *
 * @param parameters - {@link StartDemoChainsParameters}
 * @returns {@link DemoChains}; call `stop()` when done.
 *
 * @example
 * import { startDemoChains } from "./src/demo/startDemoChains";
 * const demo = await startDemoChains({ days: 10, attesterPrivateKey: "0x…", log: console.log });
 * await demo.stop();
 */
export async function startDemoChains(parameters: StartDemoChainsParameters): Promise<StartDemoChainsReturnType> {
  const { days, seed = 1, attesterPrivateKey, log, onDay } = parameters;
  const now = parameters.now ?? (() => Math.floor(Date.now() / 1000));
  if (!Number.isSafeInteger(days) || days < 1) {
    throw new DemoChainError(`days must be a positive integer, got ${String(days)}`);
  }
  if (!Number.isSafeInteger(seed)) throw new DemoChainError(`seed must be an integer, got ${String(seed)}`);
  if (!isHex(attesterPrivateKey) || attesterPrivateKey.length !== 66) {
    throw new DemoChainError("attesterPrivateKey must be a 32-byte 0x-prefixed hex string");
  }
  const attester = privateKeyToAddress(attesterPrivateKey);

  const started = Date.now();
  const startNow = now();
  // Day i happens at dayTime(i); setup happens an hour before day 0.
  const dayTime = (index: number) => startNow - (days - 1 - index) * DAY_S;
  const genesisTime = dayTime(0) - 3600;

  const chains: LocalChain[] = [];
  const stopAll = async () => {
    await Promise.all(chains.map((c) => c.stop()));
  };
  try {
    for (const spec of DEMO_CHAINS) {
      chains.push(await startLocalChain({ chainId: spec.chainId, genesisTime, log }));
    }
    const states = await Promise.all(
      DEMO_CHAINS.map((spec, i) => {
        // Each pool's history is planned from its own stream, so it does not depend on the other pools' activity.
        const plans = [...spec.pairs, ...spec.lending].map((pool, p) =>
          planDemoPool({ spec: pool, days, rng: createPrng(mixSeed(seed, spec.chainId, 1 + p)) }),
        );
        return setupChain(spec, chains[i], createPrng(mixSeed(seed, spec.chainId)), plans, log);
      }),
    );
    const registry = await deployRegistry(states[0].driver, attester, log);
    const setupMs = Date.now() - started;
    const chainList = chains.map((c) => ({ chainId: c.chainId, rpcUrl: c.rpcUrl }));
    const pools = states.flatMap(listPools);
    log(`demo: setup done in ${setupMs} ms; simulating ${days} day(s)`);

    let lastTime = 0;
    for (let index = 0; index < days; index++) {
      const last = index === days - 1;
      // The last day is pinned to the wall clock at that moment (minus a minute of headroom for its blocks).
      const target = last ? now() - 60 : dayTime(index);
      await Promise.all(
        states.map(async (state) => {
          const latest = await state.driver.latestBlock();
          await state.driver.mineAt(Math.max(target, latest.timestamp + 1));
          await simulateDay(state, index);
          if (last) {
            // Bring chain time back in step with the wall clock for serving.
            const after = await state.driver.latestBlock();
            await state.driver.mineAt(Math.max(now(), after.timestamp + 1));
          }
        }),
      );
      const blocks = await Promise.all(
        states.map(async (s) => {
          const latest = await s.driver.latestBlock();
          return { chainId: s.spec.chainId, blockNumber: latest.number, time: latest.timestamp };
        }),
      );
      lastTime = Math.max(...blocks.map((b) => b.time));
      if ((index + 1) % 10 === 0 || last) {
        log(`demo: day ${index + 1}/${days} simulated (chain time ${new Date(lastTime * 1000).toISOString()})`);
      }
      if (onDay) await onDay({ index, time: lastTime, blocks, chains: chainList, pools });
    }

    const transactions = states.reduce((n, s) => n + s.driver.transactions, 0);
    const elapsedMs = Date.now() - started;
    log(`demo: ${days} day(s) on ${states.length} chains, ${transactions} transactions in ${elapsedMs} ms`);

    return {
      chains: chainList,
      pools,
      registry: { chainId: states[0].spec.chainId, address: registry },
      tokens: Object.fromEntries(states.map((s) => [s.spec.chainId, s.tokens])),
      stats: { transactions, elapsedMs, setupMs },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    if (error instanceof DemoChainError) throw error;
    throw new DemoChainError("starting the demo chains failed", { cause: error as Error });
  }
}

/** Where the simulation steers one pool each day: the history is planned first, then played on chain. */
export interface DemoPoolPlan {
  /** One entry per day. AMM: LP token supply relative to the start. Lending: supplied amount relative to the start. */
  liquidity: number[];
  /** Lending only, one entry per day: the borrowed / supplied target. */
  utilization?: number[];
  /** The scripted events, in order, for the log: e.g. `day 31 whale −62 % (back in 6 d)`. */
  events: string[];
}

export type PlanDemoPoolParameters = {
  /** The pool's spec from `DEMO_CHAINS`: a pair or a lending reserve. */
  spec: DemoPairSpec | DemoLendingSpec;
  /** Days of history (the plan has one entry per day; day 0 is the start, at 1). */
  days: number;
  /** The pool's own PRNG stream. */
  rng: Prng;
};
export type PlanDemoPoolReturnType = DemoPoolPlan;
export type PlanDemoPoolErrorType = DemoChainError;

/** Daily wander of an AMM's liquidity and of a reserve's supply: a log random walk reverting to the start. */
const WANDER = { pairStep: 0.03, supplyStep: 0.025, revert: 0.05 } as const;
/** Utilisation random walk bounds and its reversion to the starting utilisation. */
const UTILIZATION = { min: 0.2, max: 0.88, revert: 0.1 } as const;

/**
 * Plans one pool's history from its activity profile (`demoConfig.ts`): the daily wander, plus whale
 * withdrawals, a liquidity-mining decline, or borrow spikes. Pure and deterministic for a given PRNG state.
 * Throws `DemoChainError` naming the field for a bad `days` or profile (a probability outside [0, 1], a range
 * with min > max, a floor outside (0, 1], a utilisation outside [0, 1 − cash floor)).
 *
 * @param parameters - {@link PlanDemoPoolParameters}
 * @returns {@link DemoPoolPlan}
 *
 * @example
 * import { DEMO_CHAINS } from "./src/demo/demoConfig";
 * import { createPrng } from "./src/demo/prng";
 * import { planDemoPool } from "./src/demo/startDemoChains";
 * const plan = planDemoPool({ spec: DEMO_CHAINS[0].pairs[2], days: 120, rng: createPrng(1) });
 */
export function planDemoPool(parameters: PlanDemoPoolParameters): PlanDemoPoolReturnType {
  const { spec, days, rng } = parameters;
  if (!Number.isSafeInteger(days) || days < 1) {
    throw new DemoChainError(`days must be a positive integer, got ${String(days)}`);
  }
  checkActivity(spec);
  const events: string[] = [];
  if ("base" in spec) {
    const wander = logWalk(rng, days, WANDER.pairStep);
    const level = new Array<number>(days).fill(1);
    const activity = spec.activity;
    if (activity.kind === "whale") {
      for (let d = 1; d < days;) {
        if (!rng.chance(activity.perDay)) {
          d++;
          continue;
        }
        const withdrawn = draw(rng, activity.withdrawn);
        const back = drawInt(rng, activity.returnDays);
        events.push(`day ${d + 1} whale −${Math.round(withdrawn * 100)} % (back in ${back} d)`);
        for (let k = 0; k <= back && d + k < days; k++) level[d + k] = 1 - withdrawn + (withdrawn * k) / back;
        d += back + 1;
      }
    } else if (activity.kind === "decline") {
      declineInto(level, rng, activity, events, "LPs leaving");
    }
    return { liquidity: wander.map((w, d) => w * level[d]), events };
  }

  const { utilizationStep, spikes, supplyDecline } = spec.activity;
  const supply = new Array<number>(days).fill(1);
  if (supplyDecline !== undefined) declineInto(supply, rng, supplyDecline, events, "suppliers leaving");
  const liquidity = logWalk(rng, days, WANDER.supplyStep).map((w, d) => w * supply[d]);
  const utilization: number[] = [];
  let walk = spec.utilization;
  while (utilization.length < days) {
    const d = utilization.length;
    if (d > 0) {
      const pull = UTILIZATION.revert * (spec.utilization - walk);
      walk = Math.min(
        UTILIZATION.max,
        Math.max(UTILIZATION.min, walk + pull + draw(rng, [-utilizationStep, utilizationStep])),
      );
    }
    if (spikes !== undefined && d > 0 && rng.chance(spikes.perDay)) {
      const peak = draw(rng, spikes.peak);
      const hold = drawInt(rng, spikes.holdDays);
      const repay = drawInt(rng, spikes.repayDays);
      events.push(`day ${d + 1} borrow spike to ${Math.round(peak * 100)} % (${hold} d, repaid in ${repay} d)`);
      for (let k = 0; k < hold; k++) utilization.push(peak);
      for (let k = 1; k <= repay; k++) utilization.push(peak + ((walk - peak) * k) / repay);
      continue;
    }
    utilization.push(walk);
  }
  return { liquidity, utilization: utilization.slice(0, days), events };
}

/** Throws `DemoChainError` for a profile the planner cannot follow. */
function checkActivity(spec: DemoPairSpec | DemoLendingSpec): void {
  const name = "base" in spec ? `${spec.base}-${spec.quote}` : spec.symbol;
  const fail = (field: string, value: unknown, expected: string) => {
    throw new DemoChainError(`${name}: activity.${field} must be ${expected}, got ${JSON.stringify(value)}`);
  };
  const share = (field: string, value: number, max = 1) => {
    if (!(Number.isFinite(value) && value >= 0 && value <= max)) fail(field, value, `in [0, ${max}]`);
  };
  const range = (field: string, value: DemoRange, max = 1, integer = false) => {
    share(`${field}[0]`, value[0], max);
    share(`${field}[1]`, value[1], max);
    if (value[0] > value[1]) fail(field, value, "a [min, max] range");
    if (integer && !value.every((v) => Number.isSafeInteger(v) && v >= 1)) fail(field, value, "whole days ≥ 1");
  };
  const decline = (field: string, value: DemoDecline) => {
    if (!(Number.isSafeInteger(value.sinceDaysAgo) && value.sinceDaysAgo >= 0)) {
      fail(`${field}.sinceDaysAgo`, value.sinceDaysAgo, "a whole number of days ≥ 0");
    }
    range(`${field}.perDay`, value.perDay);
    if (!(value.floor > 0 && value.floor <= 1)) fail(`${field}.floor`, value.floor, "in (0, 1]");
  };
  if ("base" in spec) {
    const activity = spec.activity;
    if (activity.kind === "whale") {
      share("perDay", activity.perDay);
      range("withdrawn", activity.withdrawn, 0.99);
      range("returnDays", activity.returnDays, Number.MAX_SAFE_INTEGER, true);
    } else if (activity.kind === "decline") decline("decline", activity);
    else if (activity.kind !== "steady") fail("kind", (activity as { kind: unknown }).kind, "steady, whale or decline");
    return;
  }
  const { utilizationStep, spikes, supplyDecline } = spec.activity;
  share("utilizationStep", utilizationStep);
  if (!(spec.utilization >= UTILIZATION.min && spec.utilization <= UTILIZATION.max)) {
    throw new DemoChainError(
      `${name}: utilization must be in [${UTILIZATION.min}, ${UTILIZATION.max}], got ${spec.utilization}`,
    );
  }
  if (spikes !== undefined) {
    share("spikes.perDay", spikes.perDay);
    range("spikes.peak", spikes.peak, 1 - CASH_FLOOR);
    range("spikes.holdDays", spikes.holdDays, Number.MAX_SAFE_INTEGER, true);
    range("spikes.repayDays", spikes.repayDays, Number.MAX_SAFE_INTEGER, true);
  }
  if (supplyDecline !== undefined) decline("supplyDecline", supplyDecline);
}

/** Multiplies `level` from the decline's first day on by the remaining share, and notes the event. */
function declineInto(level: number[], rng: Prng, decline: DemoDecline, events: string[], what: string): void {
  const start = Math.max(1, level.length - decline.sinceDaysAgo);
  if (start >= level.length) return;
  events.push(`${what} from day ${start + 1}`);
  let current = 1;
  for (let d = start; d < level.length; d++) {
    if (current > decline.floor) current = Math.max(decline.floor, current * (1 - draw(rng, decline.perDay)));
    level[d] *= current;
  }
}

/** exp of a random walk from 0 with steps in [−step, step) and reversion towards 0. */
function logWalk(rng: Prng, days: number, step: number): number[] {
  const out: number[] = [];
  let x = 0;
  for (let d = 0; d < days; d++) {
    if (d > 0) x += -WANDER.revert * x + draw(rng, [-step, step]);
    out.push(Math.exp(x));
  }
  return out;
}

function draw(rng: Prng, [min, max]: DemoRange): number {
  return rng.between(min, max);
}

function drawInt(rng: Prng, [min, max]: DemoRange): number {
  return rng.int(min, max);
}

/** a / b as a float, for steering the simulation only (never for a published figure). */
function ratio(a: bigint, b: bigint): number {
  return Number((a * 10n ** 18n) / b) / 1e18;
}

/**
 * The 32-bit seed of one PRNG stream: stream 0 drives a chain's swaps and actors, stream 1 + i plans its pool i
 * (pairs first, then reserves, in `DEMO_CHAINS` order).
 */
export function mixSeed(seed: number, chainId: number, stream = 0): number {
  return (
    (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(chainId, 0xc2b2ae35) ^ Math.imul(stream, 0x27d4eb2f)) >>> 0
  );
}

/** Whole-token USD amount → base units of a token priced at `priceUsd`. */
function usdToUnits(usd: number, priceUsd: number, decimals: number): bigint {
  const micro = BigInt(Math.floor((usd / priceUsd) * 1e6));
  return (micro * 10n ** BigInt(decimals)) / 1_000_000n;
}

/** `amount · fraction` for a float fraction, in base units (rounded down to 1e-9 of the amount). */
function fractionOf(amount: bigint, fraction: number): bigint {
  return (amount * BigInt(Math.floor(fraction * 1e9))) / 1_000_000_000n;
}

async function setupChain(
  spec: DemoChainSpec,
  chain: LocalChain,
  rng: Prng,
  plans: DemoPoolPlan[],
  log: (line: string) => void,
) {
  const driver = createChainDriver({ chainId: spec.chainId, provider: chain.provider });
  await deployMulticall3(driver, ADMIN);
  const tokens: Record<string, DemoToken> = {};
  for (const t of spec.tokens) tokens[t.symbol] = await deployToken(driver, ADMIN, t);
  const price = (symbol: string) => spec.tokens.find((t) => t.symbol === symbol)!.priceUsd;

  const factory = await deployUniswapV2Factory(driver, ADMIN);
  const pairs: PairState[] = [];
  for (const p of spec.pairs) {
    const base = tokens[p.base];
    const quote = tokens[p.quote];
    const address = await createPair(driver, ADMIN, factory, base.address, quote.address);
    const { token0, token1 } = await readPair(driver, address);
    const amountOf = (token: Address, usd: number) => {
      const t = token.toLowerCase() === base.address.toLowerCase() ? p.base : p.quote;
      return usdToUnits(usd, price(t), tokens[t].decimals);
    };
    // Three LPs hold 60 / 30 / 10 % of the starting liquidity.
    for (const [i, share] of [0.6, 0.3, 0.1].entries()) {
      const sideUsd = (p.depthUsd / 2) * share;
      await addLiquidity(driver, {
        from: LPS[i],
        pair: address,
        token0,
        amount0: amountOf(token0, sideUsd),
        token1,
        amount1: amountOf(token1, sideUsd),
      });
    }
    const reserves = await readPair(driver, address);
    pairs.push({
      spec: p,
      address,
      token0,
      token1,
      symbol: `${p.base}-${p.quote}`,
      lps: LPS,
      referencePrice: ratio(reserves.reserve1, reserves.reserve0),
      startLiquidity: await lpTotalSupply(driver, address),
      plan: plans[pairs.length],
    });
  }
  log(
    `chain ${spec.chainId}: Multicall3 at its canonical address; ${spec.tokens.length} tokens, UniswapV2Factory ${factory}, ${pairs.length} pairs`,
  );

  // Aave v3: the tracked reserves plus a collateral-only reserve the borrower posts.
  const collateralSymbol = spec.tokens.find(
    (t) => t.symbol !== "USDC" && !spec.lending.some((l) => l.symbol === t.symbol) && t.priceUsd > 100,
  )!.symbol;
  const listed = [...spec.lending.map((l) => l.symbol), collateralSymbol];
  const market = await deployAaveV3Market(driver, {
    admin: ADMIN,
    reserves: listed.map((symbol) => ({
      token: tokens[symbol],
      priceUsd8: BigInt(Math.round(price(symbol) * 1e8)),
      ltvBps: 7500,
      liquidationThresholdBps: 8000,
      liquidationBonusBps: 10500,
      reserveFactorBps: 1000,
    })),
  });
  const totalBorrowUsd = spec.lending.reduce((n, l) => n + l.suppliedUsd, 0);
  // Collateral worth 4× everything that could ever be borrowed keeps the borrower far from liquidation.
  await aaveSupply(driver, market, {
    user: BORROWER,
    asset: tokens[collateralSymbol].address,
    amount: usdToUnits(totalBorrowUsd * 4, price(collateralSymbol), tokens[collateralSymbol].decimals),
  });
  const reserves: ReserveState[] = [];
  for (const l of spec.lending) {
    const token = tokens[l.symbol];
    const supplied = usdToUnits(l.suppliedUsd, price(l.symbol), token.decimals);
    await aaveSupply(driver, market, { user: SUPPLIER, asset: token.address, amount: supplied });
    await aaveBorrow(driver, market, {
      user: BORROWER,
      asset: token.address,
      amount: fractionOf(supplied, l.utilization),
    });
    const r = market.reserves[token.address.toLowerCase()];
    reserves.push({
      symbol: l.symbol,
      token,
      aToken: r.aToken,
      variableDebtToken: r.variableDebtToken,
      startSupplied: supplied,
      plan: plans[spec.pairs.length + reserves.length],
    });
  }
  log(
    `chain ${spec.chainId}: deployed Aave v3 Pool ${market.pool} with ${listed.length} reserves (${listed.join(", ")}); ` +
      `supplied and borrowed ${spec.lending.map((l) => l.symbol).join(", ")}`,
  );
  const scripted = [...pairs, ...reserves]
    .filter((pool) => pool.plan.events.length > 0)
    .map((pool) => `${pool.symbol}: ${pool.plan.events.join(", ")}`);
  if (scripted.length > 0) log(`chain ${spec.chainId}: scripted activity: ${scripted.join("; ")}`);
  return { spec, chain, driver, rng, tokens, pairs, market, reserves } satisfies ChainState;
}

async function deployRegistry(driver: ChainDriver, attester: Address, log: (line: string) => void): Promise<Address> {
  const artifact = hardhatArtifact("AttestationRegistry.sol", "AttestationRegistry");
  const registry = await driver.deploy({
    from: ADMIN,
    artifact,
    args: [ADMIN, DEMO_REGISTRY.minBond, DEMO_REGISTRY.unbondingPeriodS],
  });
  // The attester's key is not a genesis account: fund it and let the node send for it (impersonation).
  await driver.sendValue({ from: ADMIN, to: attester, value: 10n * DEMO_REGISTRY.minBond });
  await driver.request("hardhat_impersonateAccount", [attester]);
  await driver.write({
    from: attester,
    address: registry,
    abi: artifact.abi,
    functionName: "register",
    args: [attester],
    value: DEMO_REGISTRY.minBond,
  });
  await driver.request("hardhat_stopImpersonatingAccount", [attester]);
  log(`chain ${driver.chainId}: AttestationRegistry ${registry}; attester ${attester} registered with a 1 ETH bond`);
  return registry;
}

/** Cash (supplied − borrowed) the simulation always leaves in a reserve, as a share of its supply. */
const CASH_FLOOR = 0.02;

/** One day of activity on one chain: swaps, then every pool steered to the day's planned level. */
async function simulateDay(state: ChainState, index: number): Promise<void> {
  const { driver, rng } = state;
  for (const pair of state.pairs) {
    // Swaps: 2–3 a day, 0.1–1.2 % of the input reserve each. The direction leans towards the reference
    // price (arbitrage against other venues), so prices wander but stay within a band.
    const swaps = rng.int(2, 3);
    for (let s = 0; s < swaps; s++) {
      const { reserve0, reserve1 } = await readPair(driver, pair.address);
      const deviation = Math.log(ratio(reserve1, reserve0) / pair.referencePrice);
      const zeroForOne = rng.chance(Math.min(0.9, Math.max(0.1, 0.5 + 2 * deviation)));
      const reserveIn = zeroForOne ? reserve0 : reserve1;
      await swapExactIn(driver, {
        from: rng.pick(TRADERS),
        pair: pair.address,
        tokenIn: zeroForOne ? pair.token0 : pair.token1,
        amountIn: fractionOf(reserveIn, rng.between(0.001, 0.012)),
      });
    }
    // Liquidity: LPs add or remove to reach the day's planned LP supply.
    const supply = await lpTotalSupply(driver, pair.address);
    const target = fractionOf(pair.startLiquidity, pair.plan.liquidity[index]);
    if (target > supply) {
      const { reserve0, reserve1 } = await readPair(driver, pair.address);
      const amount0 = (reserve0 * (target - supply)) / supply;
      if (amount0 > 0n) {
        await addLiquidity(driver, {
          from: rng.pick(pair.lps),
          pair: pair.address,
          token0: pair.token0,
          amount0,
          token1: pair.token1,
          amount1: (reserve1 * (target - supply)) / supply + 1n,
        });
      }
    } else if (target < supply) {
      // One LP removes a small amount; a large one (a whale leaving) comes from the largest holders first.
      const chosen = rng.pick(pair.lps);
      const chosenBalance = await lpBalance(driver, pair.address, chosen);
      const order =
        chosenBalance >= supply - target
          ? [{ lp: chosen, balance: chosenBalance }]
          : (
              await Promise.all(
                pair.lps.map(async (lp) => ({ lp, balance: await lpBalance(driver, pair.address, lp) })),
              )
            ).sort((a, b) => (a.balance === b.balance ? 0 : a.balance > b.balance ? -1 : 1));
      let remaining = supply - target;
      for (const { lp, balance } of order) {
        const liquidity = balance < remaining ? balance : remaining;
        if (liquidity > 0n) await removeLiquidity(driver, { from: lp, pair: pair.address, liquidity });
        remaining -= liquidity;
        if (remaining === 0n) break;
      }
    }
  }

  const erc20 = aaveArtifact("MintableERC20").abi;
  const asset = (reserve: ReserveState) => reserve.token.address;
  for (const reserve of state.reserves) {
    let supplied = await driver.read<bigint>({ address: reserve.aToken, abi: erc20, functionName: "totalSupply" });
    let borrowed = await driver.read<bigint>({
      address: reserve.variableDebtToken,
      abi: erc20,
      functionName: "totalSupply",
    });
    // The day's planned supply (the supplier's deposit drifting) and utilisation (the borrower's demand).
    const targetSupplied = fractionOf(reserve.startSupplied, reserve.plan.liquidity[index]);
    const targetBorrowed = fractionOf(targetSupplied, reserve.plan.utilization![index]);
    if (borrowed > targetBorrowed) {
      await aaveRepay(driver, state.market, {
        user: BORROWER,
        asset: asset(reserve),
        amount: borrowed - targetBorrowed,
      });
      borrowed = targetBorrowed;
    }
    if (targetSupplied > supplied) {
      await aaveSupply(driver, state.market, {
        user: SUPPLIER,
        asset: asset(reserve),
        amount: targetSupplied - supplied,
      });
      supplied = targetSupplied;
    } else if (supplied > targetSupplied) {
      const own = await driver.read<bigint>({
        address: reserve.aToken,
        abi: erc20,
        functionName: "balanceOf",
        args: [SUPPLIER],
      });
      let amount = supplied - targetSupplied;
      const cash = supplied - borrowed - fractionOf(supplied, CASH_FLOOR);
      if (amount > cash) amount = cash;
      if (amount > own) amount = own;
      if (amount > 0n) {
        await aaveWithdraw(driver, state.market, { user: SUPPLIER, asset: asset(reserve), amount });
        supplied -= amount;
      }
    }
    if (targetBorrowed > borrowed) {
      const room = supplied - borrowed - fractionOf(supplied, CASH_FLOOR);
      const amount = targetBorrowed - borrowed < room ? targetBorrowed - borrowed : room;
      if (amount > 0n) await aaveBorrow(driver, state.market, { user: BORROWER, asset: asset(reserve), amount });
    }
  }
}

/** A pair's LP token supply. */
async function lpTotalSupply(driver: ChainDriver, pair: Address): Promise<bigint> {
  return driver.read<bigint>({
    address: pair,
    abi: uniswapV2Artifact("UniswapV2Pair").abi,
    functionName: "totalSupply",
  });
}

function listPools(state: ChainState): DemoPool[] {
  const chainId = state.spec.chainId;
  return [
    ...state.pairs.map((p) => ({
      chainId,
      address: getAddress(p.address),
      kind: "amm" as const,
      protocol: "uniswap-v2" as const,
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
