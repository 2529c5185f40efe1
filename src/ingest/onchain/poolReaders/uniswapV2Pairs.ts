import { getAddress, parseAbi, type Address, type ContractFunctionParameters } from "viem";
import { getExitCapacity, toUnits } from "../../../model/pairMath";
import type { Fail, OnchainObservation, OnchainPoolRef, Price, ReadPoolsParameters, TokenMeta } from "./types";

/**
 * The AMM reader: Uniswap V2-style pairs (`getReserves`, `token0`, `token1`). Depth is both reserves at USD prices;
 * prices are given, or derived from the pairs themselves against USD anchors.
 */

/** Symbols treated as $1 when no `usdAnchors` are given. */
export const USD_ANCHOR_SYMBOLS = ["USDC", "USDT", "DAI", "USDC.e", "USDbC"] as const;

const pairAbi = parseAbi([
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)",
  "function token0() view returns (address)",
  "function token1() view returns (address)",
]);

/** A pair as round 1 read it. */
export type Amm = { ref: OnchainPoolRef; reserve0: bigint; reserve1: bigint; token0: Address; token1: Address };

/** Round 1, three calls per pair: reserves, token0, token1. */
export function pairReadCalls(ref: OnchainPoolRef): ContractFunctionParameters[] {
  return [
    { address: ref.address, abi: pairAbi, functionName: "getReserves" },
    { address: ref.address, abi: pairAbi, functionName: "token0" },
    { address: ref.address, abi: pairAbi, functionName: "token1" },
  ];
}

/** Round 1's three answers for a pair (all succeeded), in {@link pairReadCalls}' order. */
export function parsePairReads(ref: OnchainPoolRef, [reserves, token0, token1]: readonly unknown[]): Amm {
  const [reserve0, reserve1] = reserves as readonly [bigint, bigint, number];
  return { ref, reserve0, reserve1, token0: token0 as Address, token1: token1 as Address };
}

/** Prices: given, or derived from the pairs against USD anchors. */
export function resolvePrices(
  parameters: Pick<ReadPoolsParameters, "prices" | "usdAnchors">,
  amms: Amm[],
  tokens: readonly Address[],
  { decimals, symbols }: TokenMeta,
): Map<Address, Price> {
  const { prices, usdAnchors } = parameters;
  const price = new Map<Address, Price>();
  if (prices) {
    for (const [token, usd] of Object.entries(prices)) price.set(getAddress(token), { usd, source: "given" });
    return price;
  }
  const anchors = usdAnchors
    ? usdAnchors.map((a) => getAddress(a))
    : tokens.filter((t) => (USD_ANCHOR_SYMBOLS as readonly string[]).includes(symbols.get(t) ?? ""));
  for (const a of anchors) price.set(a, { usd: 1, source: "usd-anchor" });
  derivePrices(amms, decimals, price);
  return price;
}

/** One pair's observation, or null (after `fail`) when a token's decimals are unknown. */
export function observeAmm(
  p: Amm,
  { decimals, symbols }: TokenMeta,
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
