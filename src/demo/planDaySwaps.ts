import { DemoChainError } from "../errors/chain";
import type { DemoTrading } from "./demoConfig";
import type { Prng } from "./prng";

/** One trade of a simulated day, before it meets the pair's reserves. */
export interface DemoSwap {
  /** Index of the pair in the chain's pairs. */
  pair: number;
  /** Block time of the swap, Unix seconds. */
  at: number;
  /** A trader's trade: share of the input reserve, the day's activity factor included. */
  size: number;
  /** Uniform in [0, 1): picks the trade's direction, leaning towards the pair's starting price. */
  direction: number;
}

export type PlanDaySwapsParameters = {
  /** Each pair's trading, in the chain's pair order. */
  trading: readonly DemoTrading[];
  /** The chain's stream. */
  rng: Prng;
  /** The day's swaps happen strictly after `from` and before `to` (Unix seconds), when the window allows. */
  from: number;
  to: number;
};

export type PlanDaySwapsReturnType = {
  /** The day's market activity on the chain: below 1 a quiet day, above 1 a busy one. */
  activity: number;
  /** Every pair's swaps, ordered by time; every pair has at least one. */
  swaps: DemoSwap[];
};

/** Trading sessions per chain and day (whole numbers, inclusive), and how long one lasts in seconds. */
export const SESSIONS = [4, 8] as const;
export const SESSION_S = 1200;

/** Largest trade, as a share of the input reserve, whatever the day's activity. */
export const MAX_TRADE = 0.08;

/**
 * Plans one chain's swaps for one day: the day's market activity (one day in eight busy, ×1.6–3; about one in seven
 * quiet, ×0.3–0.6; otherwise ×0.75–1.3) and its trading sessions (4–8 bursts of 20 minutes at random times of the
 * window), then for every pair a number of swaps from its `swapsPerDay`, each at a random moment of a random session
 * and with a size drawn log-uniformly from its `size` range times the activity (at most {@link MAX_TRADE}). Times are whole seconds, strictly increasing, inside the window when it is wide enough (else
 * one second apart from `from` on). Pure and deterministic for a given PRNG state.
 * Throws `DemoChainError` for a trading spec it cannot follow.
 *
 * @param parameters - {@link PlanDaySwapsParameters}
 * @returns {@link PlanDaySwapsReturnType}
 *
 * @example
 * import { DEFAULT_TRADING } from "./src/demo/demoConfig";
 * import { createPrng } from "./src/demo/prng";
 * const { swaps } = planDaySwaps({ trading: [DEFAULT_TRADING], rng: createPrng(1), from: 0, to: 86_400 });
 */
export function planDaySwaps(parameters: PlanDaySwapsParameters): PlanDaySwapsReturnType {
  const { trading, rng, from, to } = parameters;
  trading.forEach(checkTrading);
  const mood = rng.next();
  const activity = mood < 0.12 ? rng.between(1.6, 3) : mood < 0.27 ? rng.between(0.3, 0.6) : rng.between(0.75, 1.3);
  // Trading comes in a few sessions a day; each swap falls in one of them (as a share of the window).
  const span = to - from - 1;
  const length = Math.min(1, SESSION_S / Math.max(span, 1));
  const sessions = Array.from({ length: rng.int(SESSIONS[0], SESSIONS[1]) }, () => rng.next() * (1 - length));
  const drawn: (Omit<DemoSwap, "at"> & { when: number })[] = [];
  trading.forEach((t, pair) => {
    const count = rng.int(t.swapsPerDay[0], t.swapsPerDay[1]);
    for (let k = 0; k < count; k++) {
      const when = rng.pick(sessions) + rng.next() * length;
      const size = Math.min(MAX_TRADE, logUniform(rng, t.size) * activity);
      drawn.push({ pair, when, size, direction: rng.next() });
    }
  });
  drawn.sort((a, b) => a.when - b.when || a.pair - b.pair);
  const wide = span > drawn.length;
  let previous = from;
  const swaps = drawn.map(({ when, ...swap }, k) => {
    // After the previous swap, and early enough to leave a second for each one still to come.
    const latest = to - (drawn.length - k);
    const at = wide ? Math.min(latest, Math.max(previous + 1, from + 1 + Math.floor(when * span))) : previous + 1;
    previous = at;
    return { ...swap, at };
  });
  return { activity, swaps };
}

/** Throws `DemoChainError` for swaps per day that are not whole numbers ≥ 1, or sizes outside (0, MAX_TRADE]. */
function checkTrading(trading: DemoTrading, pair: number): void {
  const [minSwaps, maxSwaps] = trading.swapsPerDay;
  if (!(Number.isSafeInteger(minSwaps) && Number.isSafeInteger(maxSwaps) && minSwaps >= 1 && minSwaps <= maxSwaps)) {
    throw new DemoChainError(
      `pair ${pair}: trading.swapsPerDay must be whole numbers [min ≥ 1, max], got ${JSON.stringify(trading.swapsPerDay)}`,
    );
  }
  const [minSize, maxSize] = trading.size;
  if (!(minSize > 0 && minSize <= maxSize && maxSize <= MAX_TRADE)) {
    throw new DemoChainError(
      `pair ${pair}: trading.size must be a range within (0, ${MAX_TRADE}], got ${JSON.stringify(trading.size)}`,
    );
  }
}

/** Log-uniform in [min, max). */
function logUniform(rng: Prng, [min, max]: readonly [number, number]): number {
  return Math.exp(rng.between(Math.log(min), Math.log(max)));
}
