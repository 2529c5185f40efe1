import { maxUint256, zeroAddress, type Address } from "viem";
import { aaveArtifact } from "./artifacts";
import { MULTICALL3_ADDRESS } from "./multicall3Address";
import type { ChainDriver } from "./chainDriver";
import { multicallWrite } from "./multicall3";
import type { DemoToken } from "./uniswapV2";
import { mintToken } from "./uniswapV2";

const RAY = 10n ** 27n;
/** Percent (as a float) → ray, e.g. 4 → 0.04·10^27. */
const rayPercent = (percent: number) => (BigInt(Math.round(percent * 100)) * RAY) / 10_000n;

/** An Aave v3 market deployed from `@aave/core-v3` bytecode. */
export interface AaveMarket {
  addressesProvider: Address;
  aclManager: Address;
  pool: Address;
  poolConfigurator: Address;
  oracle: Address;
  /** Per underlying asset (lower-cased address): its reserve tokens. */
  reserves: Record<
    string,
    { underlying: DemoToken; aToken: Address; variableDebtToken: Address; stableDebtToken: Address }
  >;
}

/** One reserve to list: the token, its oracle price in USD (8 decimals, like Chainlink) and risk parameters in bps. */
export interface AaveReserveInput {
  token: DemoToken;
  priceUsd8: bigint;
  ltvBps: number;
  liquidationThresholdBps: number;
  liquidationBonusBps: number;
  reserveFactorBps: number;
}

/**
 * Deploys an Aave v3 market the way Aave's deploy scripts do, from the package's real bytecode:
 * PoolAddressesProvider, ACLManager, the logic libraries linked into Pool and PoolConfigurator (both behind
 * the provider's proxies), the mock `PriceOracle`, a `DefaultReserveInterestRateStrategy`, the AToken and
 * debt-token implementations, then `initReserves` and the collateral/borrowing configuration.
 */
export async function deployAaveV3Market(
  driver: ChainDriver,
  args: { admin: Address; reserves: AaveReserveInput[] },
): Promise<AaveMarket> {
  const { admin } = args;
  const { addressesProvider, aclManager } = await deployAddressesProvider(driver, admin);
  const { pool, poolConfigurator } = await deployPoolAndConfigurator(driver, admin, addressesProvider);
  const oracle = await deployOracle(driver, admin, addressesProvider, args.reserves);
  const implementations = await deployReserveImplementations(driver, admin, addressesProvider, pool);
  const reserves = await listReserves(driver, {
    admin,
    pool,
    poolConfigurator,
    implementations,
    reserves: args.reserves,
  });
  return { addressesProvider, aclManager, pool, poolConfigurator, oracle, reserves };
}

/** Sends `functionName(args)` to the PoolAddressesProvider as the admin. */
function callProvider(driver: ChainDriver, admin: Address, addressesProvider: Address) {
  return (functionName: string, callArgs: readonly unknown[]) =>
    driver.write({
      from: admin,
      address: addressesProvider,
      abi: aaveArtifact("PoolAddressesProvider").abi,
      functionName,
      args: callArgs,
    });
}

/** The PoolAddressesProvider and the ACLManager, with `admin` as ACL admin and pool admin. */
async function deployAddressesProvider(
  driver: ChainDriver,
  admin: Address,
): Promise<{ addressesProvider: Address; aclManager: Address }> {
  const addressesProvider = await driver.deploy({
    from: admin,
    artifact: aaveArtifact("PoolAddressesProvider"),
    args: ["Demo Market", admin],
  });
  const call = callProvider(driver, admin, addressesProvider);
  await call("setACLAdmin", [admin]);
  const aclManager = await driver.deploy({
    from: admin,
    artifact: aaveArtifact("ACLManager"),
    args: [addressesProvider],
  });
  await call("setACLManager", [aclManager]);
  await driver.write({
    from: admin,
    address: aclManager,
    abi: aaveArtifact("ACLManager").abi,
    functionName: "addPoolAdmin",
    args: [admin],
  });
  return { addressesProvider, aclManager };
}

/** The logic libraries, then Pool and PoolConfigurator linked against them, behind the provider's proxies. */
async function deployPoolAndConfigurator(
  driver: ChainDriver,
  admin: Address,
  addressesProvider: Address,
): Promise<{ pool: Address; poolConfigurator: Address }> {
  const providerAbi = aaveArtifact("PoolAddressesProvider").abi;
  const call = callProvider(driver, admin, addressesProvider);
  const libraries: Record<string, Address> = {};
  for (const name of [
    "SupplyLogic",
    "BorrowLogic",
    "LiquidationLogic",
    "EModeLogic",
    "BridgeLogic",
    "PoolLogic",
  ] as const) {
    libraries[name] = await driver.deploy({ from: admin, artifact: aaveArtifact(name) });
  }
  libraries.FlashLoanLogic = await driver.deploy({ from: admin, artifact: aaveArtifact("FlashLoanLogic"), libraries });
  libraries.ConfiguratorLogic = await driver.deploy({ from: admin, artifact: aaveArtifact("ConfiguratorLogic") });

  const poolImpl = await driver.deploy({
    from: admin,
    artifact: aaveArtifact("Pool"),
    args: [addressesProvider],
    libraries,
  });
  await call("setPoolImpl", [poolImpl]);
  const pool = await driver.read<Address>({ address: addressesProvider, abi: providerAbi, functionName: "getPool" });

  const configuratorImpl = await driver.deploy({ from: admin, artifact: aaveArtifact("PoolConfigurator"), libraries });
  await call("setPoolConfiguratorImpl", [configuratorImpl]);
  const poolConfigurator = await driver.read<Address>({
    address: addressesProvider,
    abi: providerAbi,
    functionName: "getPoolConfigurator",
  });
  return { pool, poolConfigurator };
}

/** The mock `PriceOracle` with every reserve's price, set as the market's oracle. */
async function deployOracle(
  driver: ChainDriver,
  admin: Address,
  addressesProvider: Address,
  reserves: AaveReserveInput[],
): Promise<Address> {
  const oracle = await driver.deploy({ from: admin, artifact: aaveArtifact("PriceOracle") });
  for (const reserve of reserves) {
    await driver.write({
      from: admin,
      address: oracle,
      abi: aaveArtifact("PriceOracle").abi,
      functionName: "setAssetPrice",
      args: [reserve.token.address, reserve.priceUsd8],
    });
  }
  await callProvider(driver, admin, addressesProvider)("setPriceOracle", [oracle]);
  return oracle;
}

/** What every reserve is initialised with: one interest rate strategy and the token implementations. */
interface ReserveImplementations {
  strategy: Address;
  aTokenImpl: Address;
  variableDebtImpl: Address;
  stableDebtImpl: Address;
}

async function deployReserveImplementations(
  driver: ChainDriver,
  admin: Address,
  addressesProvider: Address,
  pool: Address,
): Promise<ReserveImplementations> {
  // Typical stablecoin-like curve: 80 % optimal usage, 0 % base, 4 % slope 1, 75 % slope 2.
  const strategy = await driver.deploy({
    from: admin,
    artifact: aaveArtifact("DefaultReserveInterestRateStrategy"),
    args: [
      addressesProvider,
      rayPercent(80),
      0n,
      rayPercent(4),
      rayPercent(75),
      rayPercent(2),
      rayPercent(75),
      rayPercent(2),
      rayPercent(5),
      rayPercent(20),
    ],
  });
  const aTokenImpl = await driver.deploy({ from: admin, artifact: aaveArtifact("AToken"), args: [pool] });
  const variableDebtImpl = await driver.deploy({
    from: admin,
    artifact: aaveArtifact("VariableDebtToken"),
    args: [pool],
  });
  const stableDebtImpl = await driver.deploy({ from: admin, artifact: aaveArtifact("StableDebtToken"), args: [pool] });
  return { strategy, aTokenImpl, variableDebtImpl, stableDebtImpl };
}

/** `initReserves`, then each reserve's collateral, borrowing and reserve-factor configuration; returns its tokens. */
async function listReserves(
  driver: ChainDriver,
  args: {
    admin: Address;
    pool: Address;
    poolConfigurator: Address;
    implementations: ReserveImplementations;
    reserves: AaveReserveInput[];
  },
): Promise<AaveMarket["reserves"]> {
  const { admin, pool, poolConfigurator, implementations } = args;
  const configuratorAbi = aaveArtifact("PoolConfigurator").abi;
  const configure = (functionName: string, callArgs: readonly unknown[]) =>
    driver.write({ from: admin, address: poolConfigurator, abi: configuratorAbi, functionName, args: callArgs });

  await configure("initReserves", [
    args.reserves.map(({ token }) => ({
      aTokenImpl: implementations.aTokenImpl,
      stableDebtTokenImpl: implementations.stableDebtImpl,
      variableDebtTokenImpl: implementations.variableDebtImpl,
      underlyingAssetDecimals: token.decimals,
      interestRateStrategyAddress: implementations.strategy,
      underlyingAsset: token.address,
      treasury: admin,
      incentivesController: zeroAddress,
      aTokenName: `Aave Demo ${token.symbol}`,
      aTokenSymbol: `a${token.symbol}`,
      variableDebtTokenName: `Aave Demo Variable Debt ${token.symbol}`,
      variableDebtTokenSymbol: `variableDebt${token.symbol}`,
      stableDebtTokenName: `Aave Demo Stable Debt ${token.symbol}`,
      stableDebtTokenSymbol: `stableDebt${token.symbol}`,
      params: "0x",
    })),
  ]);

  const reserves: AaveMarket["reserves"] = {};
  const poolAbi = aaveArtifact("Pool").abi;
  for (const reserve of args.reserves) {
    await configure("configureReserveAsCollateral", [
      reserve.token.address,
      BigInt(reserve.ltvBps),
      BigInt(reserve.liquidationThresholdBps),
      BigInt(reserve.liquidationBonusBps),
    ]);
    await configure("setReserveBorrowing", [reserve.token.address, true]);
    await configure("setReserveFactor", [reserve.token.address, BigInt(reserve.reserveFactorBps)]);
    const data = await driver.read<{
      aTokenAddress: Address;
      variableDebtTokenAddress: Address;
      stableDebtTokenAddress: Address;
    }>({
      address: pool,
      abi: poolAbi,
      functionName: "getReserveData",
      args: [reserve.token.address],
    });
    reserves[reserve.token.address.toLowerCase()] = {
      underlying: reserve.token,
      aToken: data.aTokenAddress,
      variableDebtToken: data.variableDebtTokenAddress,
      stableDebtToken: data.stableDebtTokenAddress,
    };
  }
  return reserves;
}

/** Mints `amount` of `asset` to `user` and lets the Pool pull it (what both `supply` and `repay` need first). */
async function fundAndApprovePool(
  driver: ChainDriver,
  market: AaveMarket,
  args: { user: Address; asset: Address; amount: bigint },
): Promise<void> {
  await mintToken(driver, args.user, args.asset, args.user, args.amount);
  await driver.write({
    from: args.user,
    address: args.asset,
    abi: aaveArtifact("MintableERC20").abi,
    functionName: "approve",
    args: [market.pool, maxUint256],
  });
}

/** Mints `amount` of `asset` to `user`, approves the Pool once, and `supply`s it on the user's behalf. */
export async function aaveSupply(
  driver: ChainDriver,
  market: AaveMarket,
  args: { user: Address; asset: Address; amount: bigint },
): Promise<void> {
  await fundAndApprovePool(driver, market, args);
  await driver.write({
    from: args.user,
    address: market.pool,
    abi: aaveArtifact("Pool").abi,
    functionName: "supply",
    args: [args.asset, args.amount, args.user, 0],
  });
}

/** `withdraw`s up to `amount` of `asset` supplied by `user`. */
export async function aaveWithdraw(
  driver: ChainDriver,
  market: AaveMarket,
  args: { user: Address; asset: Address; amount: bigint },
): Promise<void> {
  await driver.write({
    from: args.user,
    address: market.pool,
    abi: aaveArtifact("Pool").abi,
    functionName: "withdraw",
    args: [args.asset, args.amount, args.user],
  });
}

/** `borrow`s `amount` of `asset` at the variable rate against the user's collateral. */
export async function aaveBorrow(
  driver: ChainDriver,
  market: AaveMarket,
  args: { user: Address; asset: Address; amount: bigint },
): Promise<void> {
  await driver.write({
    from: args.user,
    address: market.pool,
    abi: aaveArtifact("Pool").abi,
    functionName: "borrow",
    args: [args.asset, args.amount, 2n, 0, args.user],
  });
}

/** Repays up to `amount` of the user's variable debt in `asset` (mints the repayment to the user first). */
export async function aaveRepay(
  driver: ChainDriver,
  market: AaveMarket,
  args: { user: Address; asset: Address; amount: bigint },
): Promise<void> {
  await fundAndApprovePool(driver, market, args);
  await driver.write({
    from: args.user,
    address: market.pool,
    abi: aaveArtifact("Pool").abi,
    functionName: "repay",
    args: [args.asset, args.amount, 2n, args.user],
  });
}

/**
 * `supply` or `repay` in ONE transaction through Multicall3 ({@link multicallWrite}), as a deposit router would:
 * Multicall3 mints `amount` of `asset` to itself (the open mock token standing in for the user's funds), approves the
 * Pool for exactly that, and supplies it for `onBehalfOf` (who gets the aTokens) or repays `onBehalfOf`'s variable
 * debt. Aave allows both on another's behalf. `from` only sends the transaction.
 */
export async function aaveViaMulticall(
  driver: ChainDriver,
  market: AaveMarket,
  args: { action: "supply" | "repay"; from: Address; onBehalfOf: Address; asset: Address; amount: bigint },
): Promise<void> {
  const erc20 = aaveArtifact("MintableERC20").abi;
  const { asset, amount, onBehalfOf } = args;
  await multicallWrite(driver, args.from, [
    { address: asset, abi: erc20, functionName: "mint", args: [MULTICALL3_ADDRESS, amount] },
    { address: asset, abi: erc20, functionName: "approve", args: [market.pool, amount] },
    {
      address: market.pool,
      abi: aaveArtifact("Pool").abi,
      functionName: args.action,
      args: args.action === "supply" ? [asset, amount, onBehalfOf, 0] : [asset, amount, 2n, onBehalfOf],
    },
  ]);
}
