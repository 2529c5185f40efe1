import { toUnits } from "../../model/pairMath";
import type { OnchainReading } from "./poolValues";

/** A token's USD price and the source's own timestamp for it. */
export interface PriceQuote {
  usd: number;
  /** When the source observed the price, Unix seconds. */
  at: number;
  /** e.g. `defillama-coins`. */
  source: string;
}

/** Parameters of {@link priceReading}. */
export interface PriceReadingParameters {
  reading: OnchainReading;
  /** The quote for a token (any case), or undefined when there is none. */
  quote: (token: string) => PriceQuote | undefined;
}

/**
 * Re-values an on-chain reading with quoted prices (DefiLlama's coins API) instead of the prices derived on chain:
 * AMM depth = both reserves at their quotes, lending exitable (= depth) = supplied − borrowed at the underlying's
 * quote. A figure whose token has no quote becomes null (not measured: the stored value stays and ages). The state
 * records the prices used (`price0Usd`, `price0Source`, `price0At`, …) and `valuedAt` is the older of the block's
 * time and every quote used, so a figure priced with an old quote turns stale with it.
 *
 * @example
 * priceReading({ reading, quote: (token) => quotes.get(token.toLowerCase()) });
 */
export function priceReading(parameters: PriceReadingParameters): OnchainReading {
  const { reading, quote } = parameters;
  const o = reading.observation;
  const state = { ...o.state };
  for (const key of ["price0Usd", "price0Source", "price1Usd", "price1Source", "priceUsd", "priceSource"]) {
    delete state[key];
  }
  let valuedAt = reading.observedAt;
  const use = (token: unknown, prefix: string): PriceQuote | undefined => {
    const q = typeof token === "string" ? quote(token) : undefined;
    if (!q) return undefined;
    Object.assign(state, { [`${prefix}Usd`]: q.usd, [`${prefix}Source`]: q.source, [`${prefix}At`]: q.at });
    valuedAt = Math.min(valuedAt, q.at);
    return q;
  };
  if (o.kind === "amm") {
    const p0 = use(o.state.token0, "price0");
    const p1 = use(o.state.token1, "price1");
    const depthUsd =
      p0 && p1
        ? toUnits(BigInt(o.state.reserve0), Number(o.state.decimals0)) * p0.usd +
          toUnits(BigInt(o.state.reserve1), Number(o.state.decimals1)) * p1.usd
        : null;
    return {
      ...reading,
      observation: { ...o, depthUsd, state },
      valuedAt: depthUsd === null ? reading.observedAt : valuedAt,
    };
  }
  const p = use(o.state.underlying, "price");
  const exitable = BigInt(o.state.exitable);
  const exitableUsd = p ? toUnits(exitable < 0n ? 0n : exitable, Number(o.state.decimals)) * p.usd : null;
  return {
    ...reading,
    observation: { ...o, depthUsd: exitableUsd, exitableUsd, state },
    valuedAt: exitableUsd === null ? reading.observedAt : valuedAt,
  };
}

/** The tokens an on-chain reading needs prices for: an AMM's two tokens, a lending reserve's underlying. */
export function readingTokens(reading: OnchainReading): string[] {
  const { kind, state } = reading.observation;
  const tokens = kind === "amm" ? [state.token0, state.token1] : [state.underlying];
  return tokens.filter((t): t is string => typeof t === "string").map((t) => t.toLowerCase());
}
