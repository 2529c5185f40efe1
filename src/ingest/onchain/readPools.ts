import { erc20Abi, getAddress, isAddress, type Address, type ContractFunctionParameters } from "viem";
import { ReadPoolsError } from "../../errors/chain";
import { countingClient } from "./countingClient";
import {
  aTokenReadCalls,
  debtTotalCalls,
  observeLendings,
  parseATokenReads,
  parseReserveReads,
  reserveReadCalls,
  underlyingOf,
  type Lending,
  type LendingReserves,
} from "./poolReaders/aaveV3Reserves";
import { pinnedMulticall, type Multicall, type Outcome } from "./poolReaders/multicall";
import type {
  Fail,
  OnchainObservation,
  OnchainReadResult,
  OnchainPoolRef,
  ReadPoolsParameters,
  TokenMeta,
} from "./poolReaders/types";
import { observeAmm, pairReadCalls, parsePairReads, resolvePrices, type Amm } from "./poolReaders/uniswapV2Pairs";

export type { OnchainObservation, OnchainPoolRef, OnchainReadResult, ReadPoolsParameters } from "./poolReaders/types";
export { USD_ANCHOR_SYMBOLS } from "./poolReaders/uniswapV2Pairs";

export type ReadPoolsReturnType = OnchainReadResult;
export type ReadPoolsErrorType = ReadPoolsError;

/** Calls per pool in round 1, whatever its protocol (see `pairReadCalls`, `aTokenReadCalls`). */
const ROUND1_CALLS_PER_POOL = 3;

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
  const { tokens, meta, reserves } = await readTokensAndReserves(multicall, amms, lendings);
  const debts = await multicall<bigint>(debtTotalCalls(reserves.reserveData));
  const price = resolvePrices(parameters, amms, tokens, meta);

  const exitSlippageBps = parameters.exitSlippageBps ?? 200;
  const observations: OnchainObservation[] = [];
  for (const amm of amms) {
    const observation = observeAmm(amm, meta, price, exitSlippageBps, fail);
    if (observation) observations.push(observation);
  }
  observations.push(...observeLendings(lendings, meta, reserves, debts, price, fail));
  return { blockNumber, observedAt, observations, failures, rpcRequests: requests() };
}

/** Round 1, three calls per pool, by protocol: pair reserves and tokens; aToken supply, underlying and pool. */
function poolReadCalls(refs: readonly OnchainPoolRef[]): ContractFunctionParameters[] {
  return refs.flatMap((ref) => (ref.kind === "amm" ? pairReadCalls(ref) : aTokenReadCalls(ref)));
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
    const outcomes = r1.slice(i * ROUND1_CALLS_PER_POOL, (i + 1) * ROUND1_CALLS_PER_POOL);
    const bad = outcomes.find((o) => !o.ok);
    if (bad && !bad.ok) return fail(ref.address, bad.error);
    const values = outcomes.map((o) => (o.ok ? o.value : undefined));
    if (ref.kind === "amm") {
      amms.push(parsePairReads(ref, values));
    } else {
      const lending = parseATokenReads(ref, values, fail);
      if (lending) lendings.push(lending);
    }
  });
  return { amms, lendings };
}

/** Round 2: decimals and symbol of every token; Aave reserve data and the aToken's cash per lending pool. */
async function readTokensAndReserves(
  multicall: Multicall,
  amms: Amm[],
  lendings: Lending[],
): Promise<{ tokens: Address[]; meta: TokenMeta; reserves: LendingReserves }> {
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
  for (const l of lendings) round2.push(...reserveReadCalls(l));
  const r2 = await multicall<unknown>(round2);
  const meta: TokenMeta = { decimals: new Map(), symbols: new Map() };
  tokens.forEach((token, i) => {
    const d = r2[i * 2];
    const s = r2[i * 2 + 1];
    if (d.ok) meta.decimals.set(token, Number(d.value));
    if (s.ok) meta.symbols.set(token, String(s.value));
  });
  return { tokens, meta, reserves: parseReserveReads(lendings, r2.slice(tokens.length * 2)) };
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
