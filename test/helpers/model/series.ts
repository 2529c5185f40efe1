import type { DailyDepth } from "../../../src/model/horizon";

const DAY_MS = 86_400_000;

/** Day `n` after 2026-01-01, `YYYY-MM-DD`. */
export const seriesDay = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * DAY_MS).toISOString().slice(0, 10);

/**
 * A deterministic pool of `length` daily lows for the model tests (a linear congruential generator: no library):
 * mean-reverting around $1M, ±`swing` a day, a 60 % withdrawal on a `dipChance` share of days that comes back over
 * the next weeks, and every `gapEvery`-th day missing (0: none).
 */
export function lowsSeries(
  seed: number,
  length: number,
  { gapEvery = 0, swing = 0.04, dipChance = 0.015 }: { gapEvery?: number; swing?: number; dipChance?: number } = {},
): DailyDepth[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const out: DailyDepth[] = [];
  let depth = 1_000_000;
  for (let i = 0; i < length; i++) {
    depth = depth + (1_000_000 - depth) * 0.08;
    depth = Math.max(1000, depth * (1 - swing + next() * 2 * swing) * (next() < dipChance ? 0.4 : 1));
    if (gapEvery > 0 && i % gapEvery === gapEvery - 1) continue;
    out.push({ day: seriesDay(i), minDepthUsd: Math.round(depth) });
  }
  return out;
}
