import type { Address } from "viem";
import { aaveBorrow, aaveSupply, deployAaveV3Market, type AaveMarket } from "../chain/aaveV3";
import { hardhatArtifact } from "../chain/artifacts";
import { createChainDriver, type ChainDriver } from "../chain/chainDriver";
import { deployMulticall3 } from "../chain/multicall3";
import type { LocalChain } from "../chain/startLocalChain";
import {
  addLiquidityViaMulticall,
  createPair,
  deployToken,
  deployUniswapV2Factory,
  readPair,
  type DemoToken,
} from "../chain/uniswapV2";
import {
  ADMIN,
  BORROWER,
  FORK_DEPLOYER,
  LPS,
  SUPPLIER,
  fractionOf,
  lpTotalSupply,
  ratio,
  usdToUnits,
  type ChainState,
  type PairState,
  type ReserveState,
} from "./demoChainState";
import {
  DEFAULT_TRADING,
  DEMO_REGISTRY,
  demoPoolSpecs,
  type DemoAmmProtocol,
  type DemoChainSpec,
  type DemoPairSpec,
} from "./demoConfig";
import type { DemoPoolPlan } from "./planDemoPool";
import type { Prng } from "./prng";

export type SetupDemoChainParameters = {
  spec: DemoChainSpec;
  chain: LocalChain;
  /** The chain's own stream (swaps and actors); kept in the state for `simulateDay`. */
  rng: Prng;
  /** One plan per pool, in `demoPoolSpecs(spec)` order (Uniswap V2 pairs, reserves, the forks' pairs). */
  plans: DemoPoolPlan[];
  log: (line: string) => void;
};

/**
 * Sets one demo chain up before its history: Multicall3, the tokens, the Uniswap V2 pairs with their starting
 * liquidity, the fork venues' own factory and pairs (deployed by their own account), and an Aave v3 market with the
 * tracked reserves supplied and borrowed. Deterministic: the same spec gives the same addresses.
 *
 * @param {@link SetupDemoChainParameters}
 * @returns the {@link ChainState} that `simulateDay` plays the history on.
 */
export async function setupDemoChain({ spec, chain, rng, plans, log }: SetupDemoChainParameters): Promise<ChainState> {
  const driver = createChainDriver({ chainId: spec.chainId, provider: chain.provider });
  await deployMulticall3(driver, ADMIN);
  const tokens: Record<string, DemoToken> = {};
  for (const t of spec.tokens) tokens[t.symbol] = await deployToken(driver, ADMIN, t);
  const specs = demoPoolSpecs(spec);
  const planOf = (protocol: string, name: string) =>
    plans[specs.findIndex((p) => p.protocol === protocol && p.name === name)];
  const factories: ChainState["factories"] = {};
  const venues = [
    { protocol: "uniswap-v2" as const, pairs: spec.pairs, deployer: ADMIN },
    ...(spec.forks ?? []).map((f) => ({ ...f, deployer: FORK_DEPLOYER })),
  ];
  const pairs: PairState[] = [];
  for (const venue of venues) {
    const deployed = await deployPairs(driver, spec, tokens, venue, (name) => planOf(venue.protocol, name));
    factories[venue.protocol] = deployed.factory;
    pairs.push(...deployed.pairs);
    log(
      `chain ${spec.chainId}: ${venue.protocol === "uniswap-v2" ? `Multicall3 at its canonical address; ${spec.tokens.length} tokens, ` : ""}` +
        `${venue.protocol} factory ${deployed.factory}${venue.protocol === "uniswap-v2" ? "" : " (Uniswap V2 bytecode, own deployment)"}, ${deployed.pairs.length} pair${deployed.pairs.length === 1 ? "" : "s"}`,
    );
  }
  const { market, reserves, listed } = await deployLending(
    driver,
    spec,
    tokens,
    spec.lending.map((l) => planOf("aave-v3", l.symbol)),
  );
  log(
    `chain ${spec.chainId}: deployed Aave v3 Pool ${market.pool} with ${listed.length} reserves (${listed.join(", ")}); ` +
      `supplied and borrowed ${spec.lending.map((l) => l.symbol).join(", ")}`,
  );
  const scripted = [...pairs, ...reserves]
    .filter((pool) => pool.plan.events.length > 0)
    .map((pool) => `${pool.symbol}: ${pool.plan.events.join(", ")}`);
  if (scripted.length > 0) log(`chain ${spec.chainId}: scripted activity: ${scripted.join("; ")}`);
  return { spec, chain, driver, rng, tokens, factories, pairs, market, reserves };
}

/** The USD price of a token of the spec. */
function priceOf(spec: DemoChainSpec, symbol: string): number {
  return spec.tokens.find((t) => t.symbol === symbol)!.priceUsd;
}

/**
 * One venue's UniswapV2Factory (deployed by `deployer`) and its pairs, each with three LPs holding 60 / 30 / 10 % of
 * its starting depth.
 */
async function deployPairs(
  driver: ChainDriver,
  spec: DemoChainSpec,
  tokens: Record<string, DemoToken>,
  venue: { protocol: DemoAmmProtocol; pairs: readonly DemoPairSpec[]; deployer: Address },
  planOf: (name: string) => DemoPoolPlan,
): Promise<{ factory: Address; pairs: PairState[] }> {
  const factory = await deployUniswapV2Factory(driver, venue.deployer);
  const pairs: PairState[] = [];
  for (const p of venue.pairs) {
    const base = tokens[p.base];
    const quote = tokens[p.quote];
    const address = await createPair(driver, venue.deployer, factory, base.address, quote.address);
    const { token0, token1 } = await readPair(driver, address);
    const amountOf = (token: Address, usd: number) => {
      const t = token.toLowerCase() === base.address.toLowerCase() ? p.base : p.quote;
      return usdToUnits(usd, priceOf(spec, t), tokens[t].decimals);
    };
    // Three LPs hold 60 / 30 / 10 % of the starting liquidity.
    for (const [i, share] of [0.6, 0.3, 0.1].entries()) {
      const sideUsd = (p.depthUsd / 2) * share;
      await addLiquidityViaMulticall(driver, {
        from: LPS[i],
        pair: address,
        token0,
        amount0: amountOf(token0, sideUsd),
        token1,
        amount1: amountOf(token1, sideUsd),
      });
    }
    const reserves = await readPair(driver, address);
    const symbol = `${p.base}-${p.quote}`;
    pairs.push({
      spec: p,
      protocol: venue.protocol,
      trading: p.trading ?? DEFAULT_TRADING,
      address,
      token0,
      token1,
      symbol,
      lps: LPS,
      referencePrice: ratio(reserves.reserve1, reserves.reserve0),
      startLiquidity: await lpTotalSupply(driver, address),
      plan: planOf(symbol),
    });
  }
  return { factory, pairs };
}

/**
 * Aave v3: the tracked reserves plus a collateral-only reserve the borrower posts; each tracked reserve supplied by
 * the supplier and borrowed to its starting utilisation.
 */
async function deployLending(
  driver: ChainDriver,
  spec: DemoChainSpec,
  tokens: Record<string, DemoToken>,
  plans: DemoPoolPlan[],
): Promise<{ market: AaveMarket; reserves: ReserveState[]; listed: string[] }> {
  const collateralSymbol = spec.tokens.find(
    (t) => t.symbol !== "USDC" && !spec.lending.some((l) => l.symbol === t.symbol) && t.priceUsd > 100,
  )!.symbol;
  const listed = [...spec.lending.map((l) => l.symbol), collateralSymbol];
  const market = await deployAaveV3Market(driver, {
    admin: ADMIN,
    reserves: listed.map((symbol) => ({
      token: tokens[symbol],
      priceUsd8: BigInt(Math.round(priceOf(spec, symbol) * 1e8)),
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
    amount: usdToUnits(totalBorrowUsd * 4, priceOf(spec, collateralSymbol), tokens[collateralSymbol].decimals),
  });
  const reserves: ReserveState[] = [];
  for (const l of spec.lending) {
    const token = tokens[l.symbol];
    const supplied = usdToUnits(l.suppliedUsd, priceOf(spec, l.symbol), token.decimals);
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
      plan: plans[reserves.length],
    });
  }
  return { market, reserves, listed };
}

/**
 * Deploys the AttestationRegistry (the demo's bond rules) and registers the attester with the minimum bond. The
 * attester's key is not a genesis account: it is funded and the node sends for it (impersonation).
 *
 * @returns the registry's address.
 */
export async function deployDemoRegistry(
  driver: ChainDriver,
  attester: Address,
  log: (line: string) => void,
): Promise<Address> {
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
