import { PairMathError } from "../errors/chain";

/**
 * Constant-product (Uniswap V2) arithmetic on a pair's reserves: x·y = k with a 0.3 % fee on the input.
 * Everything is exact integer arithmetic in token base units, rounded the way the pair rounds, so the
 * figures match what `UniswapV2Pair.swap` would accept at those reserves. They are arithmetic on the
 * invariant, not offers: the reserves can change before any trade lands.
 */

/** Fee numerator over {@link FEE_DENOMINATOR}: the pair keeps 3/1000 of every input. */
export const FEE_NUMERATOR = 997n;
export const FEE_DENOMINATOR = 1000n;
const BPS = 10_000n;

export type GetAmountOutParameters = { amountIn: bigint; reserveIn: bigint; reserveOut: bigint };

/**
 * Output for an exact input, as `UniswapV2Library.getAmountOut` computes it (rounded down).
 *
 * @param parameters - {@link GetAmountOutParameters}
 * @returns The largest output the pair's invariant check accepts for `amountIn`.
 *
 * @example
 * import { getAmountOut } from "./src/model/pairMath";
 * getAmountOut({ amountIn: 1_000n, reserveIn: 1_000_000n, reserveOut: 2_000_000n }); // 1992n
 */
export function getAmountOut(parameters: GetAmountOutParameters): bigint {
  const { amountIn, reserveIn, reserveOut } = parameters;
  assertPositive({ amountIn }, true);
  assertPositive({ reserveIn, reserveOut });
  const amountInWithFee = amountIn * FEE_NUMERATOR;
  return (amountInWithFee * reserveOut) / (reserveIn * FEE_DENOMINATOR + amountInWithFee);
}

export type GetAmountInParameters = { amountOut: bigint; reserveIn: bigint; reserveOut: bigint };

/**
 * Input needed for an exact output, as `UniswapV2Library.getAmountIn` computes it (rounded up).
 *
 * @param parameters - {@link GetAmountInParameters}
 * @returns The smallest input that buys `amountOut`.
 *
 * @example
 * import { getAmountIn } from "./src/model/pairMath";
 * getAmountIn({ amountOut: 1992n, reserveIn: 1_000_000n, reserveOut: 2_000_000n });
 */
export function getAmountIn(parameters: GetAmountInParameters): bigint {
  const { amountOut, reserveIn, reserveOut } = parameters;
  assertPositive({ amountOut }, true);
  assertPositive({ reserveIn, reserveOut });
  if (amountOut >= reserveOut) {
    throw new PairMathError(`amountOut ${amountOut} must be below reserveOut ${reserveOut}`, {
      metaMessages: ["A constant-product pair can never pay out its whole reserve."],
    });
  }
  return (reserveIn * amountOut * FEE_DENOMINATOR) / ((reserveOut - amountOut) * FEE_NUMERATOR) + 1n;
}

export type GetExitCapacityParameters = {
  /** Reserve of the token being sold (the input side). */
  reserveIn: bigint;
  /** Reserve of the token received. */
  reserveOut: bigint;
  /** Largest accepted shortfall of the average execution price below the spot price, in basis points (fee included). */
  maxSlippageBps: number;
};

export type GetExitCapacityReturnType = { amountIn: bigint; amountOut: bigint };

/**
 * Exit capacity: the largest amount that can be sold into the pair while the average execution price
 * stays within `maxSlippageBps` of the spot price `reserveOut / reserveIn` (the 0.3 % fee counts toward it).
 *
 * Selling `dx` yields `997·dx·y / (1000·x + 997·dx)`, so the price ratio to spot is
 * `997·x / (1000·x + 997·dx)`. Requiring it ≥ `1 − s` gives
 * `dx ≤ x·(997·10⁴ − 1000·(10⁴ − s)) / (997·(10⁴ − s))`, rounded down; at or below the fee
 * (`s ≤ 30` bps) the capacity is 0.
 *
 * @param parameters - {@link GetExitCapacityParameters}
 * @returns The input amount and the output it buys ({@link getAmountOut}).
 *
 * @example
 * import { getExitCapacity } from "./src/model/pairMath";
 * getExitCapacity({ reserveIn: 10n ** 24n, reserveOut: 2n * 10n ** 12n, maxSlippageBps: 200 });
 */
export function getExitCapacity(parameters: GetExitCapacityParameters): GetExitCapacityReturnType {
  const { reserveIn, reserveOut, maxSlippageBps } = parameters;
  assertPositive({ reserveIn, reserveOut });
  if (!Number.isInteger(maxSlippageBps) || maxSlippageBps < 0 || maxSlippageBps >= 10_000) {
    throw new PairMathError(`maxSlippageBps must be an integer in [0, 10000), got ${String(maxSlippageBps)}`);
  }
  const s = BigInt(maxSlippageBps);
  const numerator = FEE_NUMERATOR * BPS - FEE_DENOMINATOR * (BPS - s);
  if (numerator <= 0n) return { amountIn: 0n, amountOut: 0n };
  const amountIn = (reserveIn * numerator) / (FEE_NUMERATOR * (BPS - s));
  return { amountIn, amountOut: amountIn === 0n ? 0n : getAmountOut({ amountIn, reserveIn, reserveOut }) };
}

export type GetSpotPriceParameters = {
  reserveBase: bigint;
  decimalsBase: number;
  reserveQuote: bigint;
  decimalsQuote: number;
};

/**
 * Spot price of one whole base token in quote tokens, `(reserveQuote / 10^dq) / (reserveBase / 10^db)`,
 * as a float (for USD display; the exact figures are the reserves themselves).
 *
 * @param parameters - {@link GetSpotPriceParameters}
 * @returns The mid price before fees.
 *
 * @example
 * import { getSpotPrice } from "./src/model/pairMath";
 * getSpotPrice({ reserveBase: 10n ** 18n, decimalsBase: 18, reserveQuote: 3_000_000_000n, decimalsQuote: 6 }); // 3000
 */
export function getSpotPrice(parameters: GetSpotPriceParameters): number {
  const { reserveBase, decimalsBase, reserveQuote, decimalsQuote } = parameters;
  assertPositive({ reserveBase, reserveQuote });
  return toUnits(reserveQuote, decimalsQuote) / toUnits(reserveBase, decimalsBase);
}

/** Base units → whole tokens as a float, exact for the integer part up to 2^53 and otherwise within float precision. */
export function toUnits(amount: bigint, decimals: number): number {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 77) {
    throw new PairMathError(`decimals must be an integer in [0, 77], got ${String(decimals)}`);
  }
  const scale = 10n ** BigInt(decimals);
  const whole = amount / scale;
  const fraction = amount % scale;
  return Number(whole) + Number(fraction) / Number(scale);
}

function assertPositive(values: Record<string, bigint>, allowZero = false): void {
  for (const [name, value] of Object.entries(values)) {
    if (typeof value !== "bigint" || value < 0n || (!allowZero && value === 0n)) {
      throw new PairMathError(
        `${name} must be a ${allowZero ? "non-negative" : "positive"} bigint, got ${String(value)}`,
      );
    }
  }
}
