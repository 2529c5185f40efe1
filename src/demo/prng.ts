/** A small seeded PRNG (mulberry32): the demo's activity is the same on every start with the same seed. */
export interface Prng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [min, max). */
  between(min: number, max: number): number;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
}

/**
 * Creates a mulberry32 generator from a 32-bit seed.
 *
 * @example
 * import { createPrng } from "./src/demo/prng";
 * const rng = createPrng(42);
 * rng.between(0.001, 0.012);
 */
export function createPrng(seed: number): Prng {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    between: (min, max) => min + (max - min) * next(),
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)],
  };
}

/**
 * The 32-bit seed of one PRNG stream: stream 0 drives a chain's swaps and actors, stream 1 + i plans its pool i
 * (pairs first, then reserves, in `DEMO_CHAINS` order).
 */
export function mixSeed(seed: number, chainId: number, stream = 0): number {
  return (
    (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(chainId, 0xc2b2ae35) ^ Math.imul(stream, 0x27d4eb2f)) >>> 0
  );
}
