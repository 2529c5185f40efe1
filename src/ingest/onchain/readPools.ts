import {
  getAddress,
  isAddress,
  parseAbi,
  type Address,
  type ContractFunctionParameters,
  type PublicClient,
} from "viem";
import { ReadPoolsError } from "../../errors/chain";
import { MULTICALL3_ADDRESS } from "../../abi/multicall3";
import { getExitCapacity, toUnits } from "../../model/pairMath";
import { countingClient } from "./countingClient";

/** A pool to read on chain. Lending pools are addressed by their reserve's aToken. */
export interface OnchainPoolRef {
  chainId: number;
  /** AMM: the pair. Lending: the reserve's aToken. */
  address: Address;
  kind: "amm" | "lending";
  /** Aave Pool (lending only). Read from the aToken (`POOL()`) when omitted. */
  lendingPool?: Address;
  /**
   * Underlying asset (lending only; ignored for AMM pairs, whose tokens are read from the pair). Read from the
   * aToken when omitted; a mismatch is a failure. A one-element array (a `DemoPool`'s `underlying`) is accepted.
   */
  underlying?: Address | readonly Address[];
}

/** What one pool looked like at the read's block. USD figures are null where a price is missing. */
export interface OnchainObservation {
  chainId: number;
  address: Address;
  kind: "amm" | "lending";
  /** AMM: both reserves at USD prices. Lending: equal to `exitableUsd`. */
  depthUsd: number | null;
  /** Lending: (supplied − borrowed) at the USD price. AMM: null (no exact figure exists; see `state.exit*`). */
  exitableUsd: number | null;
  /** Lending: the reserve's current liquidity rate as a percent per year (3.1 means 3.1 %). AMM: null. */
  supplyRatePercent: number | null;
  /** Raw inputs: reserves / supplied / borrowed in base units (decimal strings), decimals, prices used. */
  state: Record<string, string | number>;
}

export interface OnchainReadResult {
  /** The block every read was pinned to. */
  blockNumber: bigint;
  /** That block's timestamp, Unix seconds. */
  observedAt: number;
  observations: OnchainObservation[];
  failures: { address: Address; error: string }[];
  /** JSON-RPC requests this pass sent (block + one `eth_call` per multicall batch). */
  rpcRequests: number;
}

export type ReadPoolsParameters = {
  /** A viem public client for the pools' chain. */
  client: PublicClient;
  /** Pools of one chain (the client's). */
  pools: OnchainPoolRef[];
  /** USD per whole token by token address (any case). When given, no price is derived on chain. */
  prices?: Record<Address, number>;
  /**
   * Tokens valued at exactly $1 for on-chain price derivation. Default: tokens whose `symbol()` is one of
   * {@link USD_ANCHOR_SYMBOLS}.
   */
  usdAnchors?: Address[];
  /** Multicall3 address. Default: the canonical `0xcA11bde05977b3631167028862bE2a173976CA11` (also on the demo chains). */
  multicallAddress?: Address;
  /**
   * Use viem's deployless multicall (Multicall3's creation code in each `eth_call`) for a chain without
   * Multicall3. Slower on Hardhat's EDR for large batches. Default false.
   */
  deployless?: boolean;
  /** Calldata bytes per multicall batch (viem's `batchSize`). Default 8192. */
  batchSize?: number;
  /** Read at this block instead of the latest. */
  blockNumber?: bigint;
  /** Largest average-price shortfall for the `state.exit*` capacities, in bps. Default 200 (2 %). */
  exitSlippageBps?: number;
};

export type ReadPoolsReturnType = OnchainReadResult;
export type ReadPoolsErrorType = ReadPoolsError;

/** Symbols treated as $1 when no `usdAnchors` are given. */
export const USD_ANCHOR_SYMBOLS = ["USDC", "USDT", "DAI", "USDC.e", "USDbC"] as const;

const pairAbi = parseAbi([
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)",
  "function token0() view returns (address)",
  "function token1() view returns (address)",
]);
const erc20Abi = parseAbi([
  "function decimals() view returns (uint8)",
  "function symbol() view returns (string)",
  "function totalSupply() view returns (uint256)",
  "function balanceOf(address) view returns (uint256)",
]);
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

type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };
/** One multicall round pinned to the read's block; failed calls come back as `{ ok: false }`. */
type Multicall = <T>(contracts: ContractFunctionParameters[]) => Promise<Outcome<T>[]>;
/** Records a pool that cannot be observed; the others go on. */
type Fail = (address: Address, error: string) => void;
type Amm = { ref: OnchainPoolRef; reserve0: bigint; reserve1: bigint; token0: Address; token1: Address };
type Lending = { ref: OnchainPoolRef; supplied: bigint; underlying: Address; pool: Address };
type Price = { usd: number; source: string };
/** Round 2's answers: token metadata, and per lending pool (in order) its reserve data and cash. */
type TokenData = {
  tokens: Address[];
  decimals: Map<Address, number>;
  symbols: Map<Address, string>;
  reserveData: (ReserveData | null)[];
  cash: (bigint | null)[];
};

/**
 * Reads pair reserves and Aave reserve state for many pools in a few multicall batches pinned to one block,
 * and turns them into depth, exitability and supply-rate figures.
 *
 * - AMM depth: both reserves at USD prices. Prices come from `prices`, or else are derived on chain from the
 *   pairs themselves: USD anchors are $1, a token paired with a priced token takes the price implied by the
 *   pair's reserves (the deepest such pair wins), repeated up to three hops.
 * - Lending: supplied = aToken `totalSupply()`, borrowed = variable + stable debt `totalSupply()`, all at the
 *   same block; exitable = supplied − borrowed exactly (base units in `state`); depth = exitable in USD;
 *   supply rate = `currentLiquidityRate` (ray) as a percent.
 * - RPC requests: one block read plus one `eth_call` per multicall batch over three rounds (pool reads; token
 *   metadata and Aave reserve data; debt totals), so they grow with the number of batches, not of pools.
 *
 * A pool whose reads fail is listed in `failures`; the others are still observed.
 *
 * @param parameters - {@link ReadPoolsParameters}
 * @returns {@link OnchainReadResult}
 *
 * @example
 * import { createPublicClient, http } from "viem";
 * import { readPools } from "./src/ingest/onchain/readPools";
 * const client = createPublicClient({ transport: http("http://127.0.0.1:8545") });
 * const result = await readPools({ client, pools: [{ chainId: 1, address: "0x…", kind: "amm" }] });
 */
export async function readPools(parameters: ReadPoolsParameters): Promise<ReadPoolsReturnType> {
  validate(parameters);
  const { counted, requests } = countingClient(parameters.client);
  const block = await counted.getBlock(
    parameters.blockNumber !== undefined ? { blockNumber: parameters.blockNumber } : { blockTag: "latest" },
  );
  const blockNumber = block.number;
  const observedAt = Number(block.timestamp);
  const multicall = pinnedMulticall(counted, blockNumber, parameters);

  const refs = parameters.pools.map((p) => ({ ...p, address: getAddress(p.address) }));
  const failures: { address: Address; error: string }[] = [];
  const fail: Fail = (address, error) => failures.push({ address, error });

  const { amms, lendings } = parsePoolReads(refs, await multicall<unknown>(poolReadCalls(refs)), fail);
  const tokenData = await readTokenData(multicall, amms, lendings);
  const debts = await multicall<bigint>(debtTotalCalls(tokenData.reserveData));
  const price = resolvePrices(parameters, amms, tokenData);

  const exitSlippageBps = parameters.exitSlippageBps ?? 200;
  const observations: OnchainObservation[] = [];
  for (const amm of amms) {
    const observation = observeAmm(amm, tokenData, price, exitSlippageBps, fail);
    if (observation) observations.push(observation);
  }
  observations.push(...observeLendings(lendings, tokenData, debts, price, fail));
  return { blockNumber, observedAt, observations, failures, rpcRequests: requests() };
}

/** A multicall at `blockNumber` with the caller's batch size and Multicall3 (or deployless) choice. */
function pinnedMulticall(client: PublicClient, blockNumber: bigint, parameters: ReadPoolsParameters): Multicall {
  const { multicallAddress = MULTICALL3_ADDRESS, deployless = false, batchSize = 8192 } = parameters;
  return async <T>(contracts: ContractFunctionParameters[]): Promise<Outcome<T>[]> => {
    if (contracts.length === 0) return [];
    const results = await client.multicall({
      contracts,
      blockNumber,
      batchSize,
      allowFailure: true,
      ...(deployless ? { deployless: true } : { multicallAddress }),
    });
    return results.map((r) =>
      r.status === "success"
        ? { ok: true, value: r.result as T }
        : { ok: false, error: (r.error as { shortMessage?: string }).shortMessage ?? String(r.error) },
    );
  };
}

/** Round 1, three calls per pool: pair reserves and tokens; aToken supply, underlying and pool. */
function poolReadCalls(refs: readonly OnchainPoolRef[]): ContractFunctionParameters[] {
  return refs.flatMap((ref): ContractFunctionParameters[] =>
    ref.kind === "amm"
      ? [
          { address: ref.address, abi: pairAbi, functionName: "getReserves" },
          { address: ref.address, abi: pairAbi, functionName: "token0" },
          { address: ref.address, abi: pairAbi, functionName: "token1" },
        ]
      : [
          { address: ref.address, abi: aTokenAbi, functionName: "totalSupply" },
          { address: ref.address, abi: aTokenAbi, functionName: "UNDERLYING_ASSET_ADDRESS" },
          { address: ref.address, abi: aTokenAbi, functionName: "POOL" },
        ],
  );
}

/** Round 1's answers per pool; a failed call, or a lending pool not matching its configuration, fails the pool. */
function parsePoolReads(
  refs: readonly OnchainPoolRef[],
  r1: Outcome<unknown>[],
  fail: Fail,
): { amms: Amm[]; lendings: Lending[] } {
  const amms: Amm[] = [];
  const lendings: Lending[] = [];
  refs.forEach((ref, i) => {
    const [a, b, c] = r1.slice(i * 3, i * 3 + 3);
    const bad = [a, b, c].find((o) => !o.ok);
    if (bad && !bad.ok) return fail(ref.address, bad.error);
    if (!a.ok || !b.ok || !c.ok) return;
    if (ref.kind === "amm") {
      const [reserve0, reserve1] = a.value as readonly [bigint, bigint, number];
      amms.push({ ref, reserve0, reserve1, token0: b.value as Address, token1: c.value as Address });
    } else {
      const underlying = getAddress(b.value as Address);
      const pool = getAddress(c.value as Address);
      const configured = underlyingOf(ref);
      if (configured && getAddress(configured) !== underlying) {
        return fail(ref.address, `aToken's underlying is ${underlying}, not the configured ${configured}`);
      }
      if (ref.lendingPool && getAddress(ref.lendingPool) !== pool) {
        return fail(ref.address, `aToken's pool is ${pool}, not the configured ${ref.lendingPool}`);
      }
      lendings.push({ ref, supplied: a.value as bigint, underlying, pool });
    }
  });
  return { amms, lendings };
}

/** Round 2: decimals and symbol of every token; Aave reserve data and the aToken's cash per lending pool. */
async function readTokenData(multicall: Multicall, amms: Amm[], lendings: Lending[]): Promise<TokenData> {
  const tokens = [
    ...new Set([
      ...amms.flatMap((p) => [getAddress(p.token0), getAddress(p.token1)]),
      ...lendings.map((l) => l.underlying),
    ]),
  ];
  const round2: ContractFunctionParameters[] = [];
  for (const token of tokens) {
    round2.push(
      { address: token, abi: erc20Abi, functionName: "decimals" },
      { address: token, abi: erc20Abi, functionName: "symbol" },
    );
  }
  for (const l of lendings) {
    round2.push(
      { address: l.pool, abi: aavePoolAbi, functionName: "getReserveData", args: [l.underlying] },
      { address: l.underlying, abi: erc20Abi, functionName: "balanceOf", args: [l.ref.address] },
    );
  }
  const r2 = await multicall<unknown>(round2);
  const decimals = new Map<Address, number>();
  const symbols = new Map<Address, string>();
  tokens.forEach((token, i) => {
    const d = r2[i * 2];
    const s = r2[i * 2 + 1];
    if (d.ok) decimals.set(token, Number(d.value));
    if (s.ok) symbols.set(token, String(s.value));
  });
  const reserveData: (ReserveData | null)[] = [];
  const cash: (bigint | null)[] = [];
  lendings.forEach((_, i) => {
    const d = r2[tokens.length * 2 + i * 2];
    const c = r2[tokens.length * 2 + i * 2 + 1];
    reserveData.push(d.ok ? (d.value as ReserveData) : null);
    cash.push(c.ok ? (c.value as bigint) : null);
  });
  return { tokens, decimals, symbols, reserveData, cash };
}

/** Round 3: variable and stable debt totals of every lending pool whose reserve data was read, in order. */
function debtTotalCalls(reserveData: readonly (ReserveData | null)[]): ContractFunctionParameters[] {
  return reserveData.flatMap((data): ContractFunctionParameters[] =>
    data
      ? [
          { address: data.variableDebtTokenAddress, abi: erc20Abi, functionName: "totalSupply" },
          { address: data.stableDebtTokenAddress, abi: erc20Abi, functionName: "totalSupply" },
        ]
      : [],
  );
}

/** Prices: given, or derived from the pairs against USD anchors. */
function resolvePrices(parameters: ReadPoolsParameters, amms: Amm[], tokenData: TokenData): Map<Address, Price> {
  const { prices, usdAnchors } = parameters;
  const price = new Map<Address, Price>();
  if (prices) {
    for (const [token, usd] of Object.entries(prices)) price.set(getAddress(token), { usd, source: "given" });
    return price;
  }
  const anchors = usdAnchors
    ? usdAnchors.map((a) => getAddress(a))
    : tokenData.tokens.filter((t) =>
        (USD_ANCHOR_SYMBOLS as readonly string[]).includes(tokenData.symbols.get(t) ?? ""),
      );
  for (const a of anchors) price.set(a, { usd: 1, source: "usd-anchor" });
  derivePrices(amms, tokenData.decimals, price);
  return price;
}

/** One pair's observation, or null (after `fail`) when a token's decimals are unknown. */
function observeAmm(
  p: Amm,
  { decimals, symbols }: TokenData,
  price: Map<Address, Price>,
  exitSlippageBps: number,
  fail: Fail,
): OnchainObservation | null {
  const t0 = getAddress(p.token0);
  const t1 = getAddress(p.token1);
  const d0 = decimals.get(t0);
  const d1 = decimals.get(t1);
  if (d0 === undefined || d1 === undefined) {
    fail(p.ref.address, `decimals() of ${d0 === undefined ? t0 : t1} failed`);
    return null;
  }
  const p0 = price.get(t0);
  const p1 = price.get(t1);
  const state: Record<string, string | number> = {
    token0: t0,
    token1: t1,
    symbol0: symbols.get(t0) ?? "",
    symbol1: symbols.get(t1) ?? "",
    reserve0: p.reserve0.toString(),
    reserve1: p.reserve1.toString(),
    decimals0: d0,
    decimals1: d1,
  };
  if (p0) Object.assign(state, { price0Usd: p0.usd, price0Source: p0.source });
  if (p1) Object.assign(state, { price1Usd: p1.usd, price1Source: p1.source });
  if (p.reserve0 > 0n && p.reserve1 > 0n) {
    const sell0 = getExitCapacity({ reserveIn: p.reserve0, reserveOut: p.reserve1, maxSlippageBps: exitSlippageBps });
    const sell1 = getExitCapacity({ reserveIn: p.reserve1, reserveOut: p.reserve0, maxSlippageBps: exitSlippageBps });
    Object.assign(state, {
      exitSlippageBps,
      exitToken0In: sell0.amountIn.toString(),
      exitToken1Out: sell0.amountOut.toString(),
      exitToken1In: sell1.amountIn.toString(),
      exitToken0Out: sell1.amountOut.toString(),
    });
  }
  const depthUsd = p0 && p1 ? toUnits(p.reserve0, d0) * p0.usd + toUnits(p.reserve1, d1) * p1.usd : null;
  return {
    chainId: p.ref.chainId,
    address: p.ref.address,
    kind: "amm",
    depthUsd,
    exitableUsd: null,
    supplyRatePercent: null,
    state,
  };
}

/** The lending pools' observations, in order; `debts` holds two totals per pool whose reserve data was read. */
function observeLendings(
  lendings: Lending[],
  { decimals, symbols, reserveData, cash }: TokenData,
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

/** Prices tokens paired with priced tokens, hop by hop (up to 3), preferring the deepest pair. */
function derivePrices(amms: Amm[], decimals: Map<Address, number>, price: Map<Address, Price>): void {
  for (let hop = 0; hop < 3; hop++) {
    const best = new Map<Address, { usd: number; liquidityUsd: number; source: string }>();
    for (const p of amms) {
      if (p.reserve0 === 0n || p.reserve1 === 0n) continue;
      const sides = [
        { token: getAddress(p.token0), reserve: p.reserve0 },
        { token: getAddress(p.token1), reserve: p.reserve1 },
      ];
      for (const [known, unknown] of [
        [sides[0], sides[1]],
        [sides[1], sides[0]],
      ]) {
        const knownPrice = price.get(known.token);
        if (!knownPrice || price.has(unknown.token)) continue;
        const dk = decimals.get(known.token);
        const du = decimals.get(unknown.token);
        if (dk === undefined || du === undefined) continue;
        const liquidityUsd = toUnits(known.reserve, dk) * knownPrice.usd;
        const usd = liquidityUsd / toUnits(unknown.reserve, du);
        const current = best.get(unknown.token);
        if (!current || liquidityUsd > current.liquidityUsd) {
          best.set(unknown.token, { usd, liquidityUsd, source: `pair:${p.ref.address}` });
        }
      }
    }
    if (best.size === 0) return;
    for (const [token, { usd, source }] of best) price.set(token, { usd, source });
  }
}

function underlyingOf(pool: OnchainPoolRef): Address | undefined {
  const u = pool.underlying as unknown;
  return Array.isArray(u) ? (u[0] as Address) : (u as Address | undefined);
}

function validate(parameters: ReadPoolsParameters): void {
  const { pools, client, prices } = parameters;
  if (!Array.isArray(pools)) throw new ReadPoolsError("pools must be an array of pool references");
  const chainIds = new Set(pools.map((p) => p.chainId));
  if (chainIds.size > 1) {
    throw new ReadPoolsError(`pools span several chains (${[...chainIds].join(", ")})`, {
      metaMessages: ["Call readPools once per chain, with that chain's client."],
    });
  }
  const clientChainId = client.chain?.id;
  if (clientChainId !== undefined && pools.length > 0 && pools[0].chainId !== clientChainId) {
    throw new ReadPoolsError(`pools are on chain ${pools[0].chainId} but the client is for chain ${clientChainId}`);
  }
  for (const pool of pools) {
    if (pool.kind !== "amm" && pool.kind !== "lending") {
      throw new ReadPoolsError(
        `pool ${String(pool.address)}: kind must be "amm" or "lending", got ${String(pool.kind)}`,
      );
    }
    if (pool.kind === "lending" && Array.isArray(pool.underlying) && pool.underlying.length !== 1) {
      throw new ReadPoolsError(`pool ${String(pool.address)}: a lending pool has exactly one underlying asset`);
    }
    const fields: [string, unknown][] = [
      ["address", pool.address],
      ["lendingPool", pool.lendingPool],
      ["underlying", pool.kind === "lending" ? underlyingOf(pool) : undefined],
    ];
    for (const [field, value] of fields) {
      if (value === undefined && field !== "address") continue;
      if (typeof value !== "string" || !isAddress(value, { strict: false })) {
        throw new ReadPoolsError(`pool ${String(pool.address)}: ${field} is not an address: ${String(value)}`);
      }
    }
  }
  if (prices) {
    for (const [token, usd] of Object.entries(prices)) {
      if (typeof usd !== "number" || !Number.isFinite(usd) || usd < 0) {
        throw new ReadPoolsError(`prices[${token}] must be a finite non-negative number, got ${String(usd)}`);
      }
    }
  }
  const { batchSize, exitSlippageBps } = parameters;
  if (batchSize !== undefined && (!Number.isInteger(batchSize) || batchSize < 0)) {
    throw new ReadPoolsError(`batchSize must be a non-negative integer, got ${String(batchSize)}`);
  }
  if (
    exitSlippageBps !== undefined &&
    (!Number.isInteger(exitSlippageBps) || exitSlippageBps < 0 || exitSlippageBps >= 10_000)
  ) {
    throw new ReadPoolsError(`exitSlippageBps must be an integer in [0, 10000), got ${String(exitSlippageBps)}`);
  }
}
