import { erc20Abi, getAddress, parseAbi, type Address, type ContractFunctionParameters } from "viem";
import { toUnits } from "../../../model/pairMath";
import type { Outcome } from "./multicall";
import type { Fail, OnchainObservation, OnchainPoolRef, Price, TokenMeta } from "./types";

/**
 * The lending reader: Aave V3 reserves, addressed by their aToken. Supplied = aToken `totalSupply()`, borrowed =
 * variable + stable debt `totalSupply()`, all at the same block; exitable = supplied − borrowed; supply rate =
 * `currentLiquidityRate` (ray) as a percent.
 */

const aTokenAbi = parseAbi([
  "function UNDERLYING_ASSET_ADDRESS() view returns (address)",
  "function POOL() view returns (address)",
  "function totalSupply() view returns (uint256)",
]);
const aavePoolAbi = parseAbi([
  "struct ReserveConfigurationMap { uint256 data; }",
  "struct ReserveData { ReserveConfigurationMap configuration; uint128 liquidityIndex; uint128 currentLiquidityRate; uint128 variableBorrowIndex; uint128 currentVariableBorrowRate; uint128 currentStableBorrowRate; uint40 lastUpdateTimestamp; uint16 id; address aTokenAddress; address stableDebtTokenAddress; address variableDebtTokenAddress; address interestRateStrategyAddress; uint128 accruedToTreasury; uint128 unbacked; uint128 isolationModeTotalDebt; }",
  "function getReserveData(address asset) view returns (ReserveData)",
]);

type ReserveData = {
  currentLiquidityRate: bigint;
  currentVariableBorrowRate: bigint;
  aTokenAddress: Address;
  stableDebtTokenAddress: Address;
  variableDebtTokenAddress: Address;
};

/** A reserve as round 1 read it from its aToken. */
export type Lending = { ref: OnchainPoolRef; supplied: bigint; underlying: Address; pool: Address };

/** Round 2's answers per lending pool, in order: its reserve data and its aToken's cash (null where a call failed). */
export type LendingReserves = { reserveData: (ReserveData | null)[]; cash: (bigint | null)[] };

/** Round 1, three calls per aToken: supply, underlying asset, pool. */
export function aTokenReadCalls(ref: OnchainPoolRef): ContractFunctionParameters[] {
  return [
    { address: ref.address, abi: aTokenAbi, functionName: "totalSupply" },
    { address: ref.address, abi: aTokenAbi, functionName: "UNDERLYING_ASSET_ADDRESS" },
    { address: ref.address, abi: aTokenAbi, functionName: "POOL" },
  ];
}

/**
 * Round 1's three answers for an aToken (all succeeded), in {@link aTokenReadCalls}' order; null (after `fail`) when
 * the reserve does not match its configured underlying asset or pool.
 */
export function parseATokenReads(
  ref: OnchainPoolRef,
  [supplied, underlyingAsset, lendingPool]: readonly unknown[],
  fail: Fail,
): Lending | null {
  const underlying = getAddress(underlyingAsset as Address);
  const pool = getAddress(lendingPool as Address);
  const configured = underlyingOf(ref);
  if (configured && getAddress(configured) !== underlying) {
    fail(ref.address, `aToken's underlying is ${underlying}, not the configured ${configured}`);
    return null;
  }
  if (ref.lendingPool && getAddress(ref.lendingPool) !== pool) {
    fail(ref.address, `aToken's pool is ${pool}, not the configured ${ref.lendingPool}`);
    return null;
  }
  return { ref, supplied: supplied as bigint, underlying, pool };
}

/** Round 2, two calls per reserve: the pool's reserve data and the aToken's cash (its underlying balance). */
export function reserveReadCalls(l: Lending): ContractFunctionParameters[] {
  return [
    { address: l.pool, abi: aavePoolAbi, functionName: "getReserveData", args: [l.underlying] },
    { address: l.underlying, abi: erc20Abi, functionName: "balanceOf", args: [l.ref.address] },
  ];
}

/** Round 2's answers to {@link reserveReadCalls}, two per lending pool in order. */
export function parseReserveReads(
  lendings: readonly Lending[],
  outcomes: readonly Outcome<unknown>[],
): LendingReserves {
  const reserveData: (ReserveData | null)[] = [];
  const cash: (bigint | null)[] = [];
  lendings.forEach((_, i) => {
    const d = outcomes[i * 2];
    const c = outcomes[i * 2 + 1];
    reserveData.push(d.ok ? (d.value as ReserveData) : null);
    cash.push(c.ok ? (c.value as bigint) : null);
  });
  return { reserveData, cash };
}

/** Round 3: variable and stable debt totals of every lending pool whose reserve data was read, in order. */
export function debtTotalCalls(reserveData: readonly (ReserveData | null)[]): ContractFunctionParameters[] {
  return reserveData.flatMap((data): ContractFunctionParameters[] =>
    data
      ? [
          { address: data.variableDebtTokenAddress, abi: erc20Abi, functionName: "totalSupply" },
          { address: data.stableDebtTokenAddress, abi: erc20Abi, functionName: "totalSupply" },
        ]
      : [],
  );
}

/** The lending pools' observations, in order; `debts` holds two totals per pool whose reserve data was read. */
export function observeLendings(
  lendings: Lending[],
  { decimals, symbols }: TokenMeta,
  { reserveData, cash }: LendingReserves,
  debts: Outcome<bigint>[],
  price: Map<Address, Price>,
  fail: Fail,
): OnchainObservation[] {
  const observations: OnchainObservation[] = [];
  let debtIndex = 0;
  lendings.forEach((l, i) => {
    const data = reserveData[i];
    if (!data) return fail(l.ref.address, `getReserveData(${l.underlying}) on ${l.pool} failed`);
    const variable = debts[debtIndex++];
    const stable = debts[debtIndex++];
    if (!variable.ok) return fail(l.ref.address, `variable debt totalSupply() failed: ${variable.error}`);
    if (!stable.ok) return fail(l.ref.address, `stable debt totalSupply() failed: ${stable.error}`);
    if (getAddress(data.aTokenAddress) !== l.ref.address) {
      return fail(l.ref.address, `the pool's aToken for ${l.underlying} is ${data.aTokenAddress}`);
    }
    const d = decimals.get(l.underlying);
    if (d === undefined) return fail(l.ref.address, `decimals() of ${l.underlying} failed`);
    const borrowed = variable.value + stable.value;
    const exitable = l.supplied - borrowed;
    const p = price.get(l.underlying);
    const exitableUsd = p ? toUnits(exitable < 0n ? 0n : exitable, d) * p.usd : null;
    const state: Record<string, string | number> = {
      underlying: l.underlying,
      symbol: symbols.get(l.underlying) ?? "",
      lendingPool: l.pool,
      decimals: d,
      supplied: l.supplied.toString(),
      borrowed: borrowed.toString(),
      exitable: exitable.toString(),
      liquidityRateRay: data.currentLiquidityRate.toString(),
      variableBorrowRatePercent: rayToPercent(data.currentVariableBorrowRate),
    };
    if (cash[i] !== null) state.cash = String(cash[i]);
    if (p) Object.assign(state, { priceUsd: p.usd, priceSource: p.source });
    observations.push({
      chainId: l.ref.chainId,
      address: l.ref.address,
      kind: "lending",
      depthUsd: exitableUsd,
      exitableUsd,
      supplyRatePercent: rayToPercent(data.currentLiquidityRate),
      state,
    });
  });
  return observations;
}

/** Ray (10^27 = 100 %) → percent, e.g. 0.031·10^27 → 3.1. Exact to 10^-9 percent before the float conversion. */
function rayToPercent(ray: bigint): number {
  return Number((ray * 100n * 10n ** 9n) / 10n ** 27n) / 1e9;
}

/** The configured underlying asset, if any (a one-element array is accepted). */
export function underlyingOf(pool: OnchainPoolRef): Address | undefined {
  const u = pool.underlying as unknown;
  return Array.isArray(u) ? (u[0] as Address) : (u as Address | undefined);
}
