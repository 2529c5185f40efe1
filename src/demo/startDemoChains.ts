import { getAddress, isHex, type Address, type Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { aaveArtifact, hardhatArtifact } from "../chain/artifacts";
import { createChainDriver, type ChainDriver } from "../chain/chainDriver";
import { deployMulticall3 } from "../chain/multicall3";
import { DemoChainError } from "../chain/errors";
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
import { DEMO_CHAINS, DEMO_REGISTRY, type DemoChainSpec, type DemoPairSpec } from "./demoConfig";
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
}

interface ReserveState {
  symbol: string;
  token: DemoToken;
  aToken: Address;
  variableDebtToken: Address;
  utilization: number;
  /** Starting utilisation: the borrower's demand reverts towards it. */
  referenceUtilization: number;
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
      DEMO_CHAINS.map((spec, i) => setupChain(spec, chains[i], createPrng(mixSeed(seed, spec.chainId)), log)),
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
          await simulateDay(state);
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

/** a / b as a float, for steering the simulation only (never for a published figure). */
function ratio(a: bigint, b: bigint): number {
  return Number((a * 10n ** 18n) / b) / 1e18;
}

function mixSeed(seed: number, chainId: number): number {
  return (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(chainId, 0xc2b2ae35)) >>> 0;
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

async function setupChain(spec: DemoChainSpec, chain: LocalChain, rng: Prng, log: (line: string) => void) {
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
      utilization: l.utilization,
      referenceUtilization: l.utilization,
    });
  }
  log(
    `chain ${spec.chainId}: deployed Aave v3 Pool ${market.pool} with ${listed.length} reserves (${listed.join(", ")}); ` +
      `supplied and borrowed ${spec.lending.map((l) => l.symbol).join(", ")}`,
  );
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

/** One day of activity on one chain. */
async function simulateDay(state: ChainState): Promise<void> {
  const { driver, rng } = state;
  for (const pair of state.pairs) {
    // Swaps: 2–4 a day, 0.1–1.2 % of the input reserve each. The direction leans towards the reference
    // price (arbitrage against other venues), so prices wander but stay within a band.
    const swaps = rng.int(2, 4);
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
    // Liquidity moves: adds, partial removals and, rarely, a large withdrawal by the biggest LP.
    const roll = rng.next();
    if (roll < 0.4) {
      const { reserve0, reserve1 } = await readPair(driver, pair.address);
      const amount0 = fractionOf(reserve0, rng.between(0.02, 0.08));
      await addLiquidity(driver, {
        from: rng.pick(pair.lps),
        pair: pair.address,
        token0: pair.token0,
        amount0,
        token1: pair.token1,
        amount1: (amount0 * reserve1) / reserve0 + 1n,
      });
    } else if (roll < 0.7) {
      const lp = rng.pick(pair.lps);
      const balance = await lpBalance(driver, pair.address, lp);
      const liquidity = fractionOf(balance, rng.between(0.05, 0.2));
      if (liquidity > 0n) await removeLiquidity(driver, { from: lp, pair: pair.address, liquidity });
    } else if (roll < 0.715) {
      const balance = await lpBalance(driver, pair.address, pair.lps[0]);
      const liquidity = balance / 2n;
      if (liquidity > 0n) await removeLiquidity(driver, { from: pair.lps[0], pair: pair.address, liquidity });
    }
  }

  for (const reserve of state.reserves) {
    const erc20 = aaveArtifact("MintableERC20").abi;
    const supplied = await driver.read<bigint>({ address: reserve.aToken, abi: erc20, functionName: "totalSupply" });
    const borrowed = await driver.read<bigint>({
      address: reserve.variableDebtToken,
      abi: erc20,
      functionName: "totalSupply",
    });
    // Supply drifts by up to ±3 % a day.
    const delta = rng.between(-0.03, 0.03);
    let newSupplied = supplied;
    if (delta > 0) {
      const amount = fractionOf(supplied, delta);
      await aaveSupply(driver, state.market, { user: SUPPLIER, asset: reserve.token.address, amount });
      newSupplied += amount;
    } else {
      const cash = supplied - borrowed;
      const own = await driver.read<bigint>({
        address: reserve.aToken,
        abi: erc20,
        functionName: "balanceOf",
        args: [SUPPLIER],
      });
      let amount = fractionOf(supplied, -delta);
      const limit = cash - fractionOf(supplied, 0.05);
      if (amount > limit) amount = limit;
      if (amount > own) amount = own;
      if (amount > 0n) {
        await aaveWithdraw(driver, state.market, { user: SUPPLIER, asset: reserve.token.address, amount });
        newSupplied -= amount;
      }
    }
    // Utilisation random-walks within 20–88 %, reverting towards its start; the borrower borrows or repays to it.
    const pull = 0.1 * (reserve.referenceUtilization - reserve.utilization);
    reserve.utilization = Math.min(0.88, Math.max(0.2, reserve.utilization + pull + rng.between(-0.04, 0.04)));
    const target = fractionOf(newSupplied, reserve.utilization);
    if (target > borrowed) {
      const room = newSupplied - borrowed - fractionOf(newSupplied, 0.05);
      const amount = target - borrowed < room ? target - borrowed : room;
      if (amount > 0n) await aaveBorrow(driver, state.market, { user: BORROWER, asset: reserve.token.address, amount });
    } else if (borrowed > target) {
      await aaveRepay(driver, state.market, {
        user: BORROWER,
        asset: reserve.token.address,
        amount: borrowed - target,
      });
    }
  }
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
