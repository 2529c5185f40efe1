/**
 * Process families of daily-low series for judging the horizon model on data it was not written for. Each family draws
 * its parameters per pool from a seeded PRNG (`src/demo/prng.ts`, mulberry32), so a (family, seed, pool) triple always
 * gives the same series. Written independently of the demo's simulation: nothing here reads it.
 *
 * Benchmark and test code only: nothing under src/ imports this file.
 */
import { createPrng, type Prng } from "../src/demo/prng";
import type { EvaluatedPool } from "../src/model/evaluateModel";

export const FAMILIES = ["drift", "meanReversion", "regimes", "jumps", "cliffs", "heavyTails", "uptrend"] as const;

/**
 * Families written on 2026-11-29, after v6 was fixed, and never tuned on: a slow drain, volatility clusters and a large
 * LP that leaves and comes back. Not in the mixed set (which stays the seven above, its series unchanged).
 */
export const LATER_FAMILIES = ["drain", "clusters", "whale"] as const;
export type Family = (typeof FAMILIES)[number] | (typeof LATER_FAMILIES)[number];
const ALL_FAMILIES: readonly Family[] = [...FAMILIES, ...LATER_FAMILIES];

/** One standard normal draw (Box–Muller; `1 − u` keeps the logarithm finite). */
function normal(rng: Prng): number {
  return Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
}

/** One Student-t draw with `nu` (integer) degrees of freedom: Z / √(χ²ν / ν). */
function studentT(rng: Prng, nu: number): number {
  let chi = 0;
  for (let i = 0; i < nu; i++) chi += normal(rng) ** 2;
  return normal(rng) / Math.sqrt(chi / nu);
}

/**
 * A day's log-depth step: returns the next log depth from the current one. `calm`, where a family has a stressed
 * state, says whether the process is calm after the day's step (a family without one is calm on every day).
 */
type Step = ((logDepth: number, day: number) => number) & {
  calm?: () => boolean;
  /** The parameters drawn for the pool (`FamilyPool.params`). */
  params: Readonly<Record<string, number>>;
};

/**
 * The jumps family's law: a day's chance of a jump, drawn per pool uniformly in `rate`, and a jump's loss, drawn per
 * jump uniformly in `loss`. `bench/jumpsBound.ts` reads it for the forecasters that know the law.
 */
export const JUMPS = { rate: [0.002, 0.01], loss: [0.4, 0.85] } as const;

/** A step with the parameters it was drawn with. */
function withParams(step: (logDepth: number, day: number) => number, params: Record<string, number>): Step {
  return Object.assign(step, { params });
}

/** Days after a jump or a cliff during which the pool is not calm. */
const SHOCK_DAYS = 14;

/** Each family's per-pool parameters (drawn from `rng`) and its daily step, in log depth. */
const STEPS: Record<Family, (rng: Prng, base: number, days: number) => Step> = {
  // A random walk that bleeds: drift −0.05 % to −0.4 % a day, volatility 1–5 % a day.
  drift: (rng) => {
    const mu = rng.between(-0.004, -0.0005);
    const sigma = rng.between(0.01, 0.05);
    return withParams((x) => x + mu + sigma * normal(rng), { mu, sigma });
  },
  // Mean reversion of log depth towards the pool's level: speed 2–20 % a day, volatility 2–10 % a day.
  meanReversion: (rng, base) => {
    const kappa = rng.between(0.02, 0.2);
    const sigma = rng.between(0.02, 0.1);
    return withParams((x) => x + kappa * (base - x) + sigma * normal(rng), { kappa, sigma });
  },
  // Two regimes: calm (1–2 % a day, no drift) and stress (5–12 % a day, drifting down 1–3 % a day).
  regimes: (rng) => {
    const calmSigma = rng.between(0.01, 0.02);
    const stressSigma = rng.between(0.05, 0.12);
    const stressDrift = rng.between(-0.03, -0.01);
    const enter = rng.between(0.003, 0.02);
    const leave = rng.between(0.05, 0.2);
    let stress = false;
    const step = withParams(
      (x) => {
        stress = stress ? !rng.chance(leave) : rng.chance(enter);
        return stress ? x + stressDrift + stressSigma * normal(rng) : x + calmSigma * normal(rng);
      },
      { calmSigma, stressSigma, stressDrift, enter, leave },
    );
    step.calm = () => !stress;
    return step;
  },
  // Rare large withdrawals: a calm pool (0.5–2 % a day) loses 40–85 % on 0.2–1 % of days, and returns towards its
  // level at 0–5 % a day (some never come back).
  jumps: (rng, base) => {
    const sigma = rng.between(0.005, 0.02);
    const rate = rng.between(...JUMPS.rate);
    const recovery = rng.between(0, 0.05);
    let sinceJump = Number.POSITIVE_INFINITY;
    const step = withParams(
      (x) => {
        let next = x + recovery * (base - x) + sigma * normal(rng);
        sinceJump++;
        if (rng.chance(rate)) {
          next += Math.log(1 - rng.between(...JUMPS.loss));
          sinceJump = 0;
        }
        return next;
      },
      { sigma, rate, recovery },
    );
    step.calm = () => sinceJump >= SHOCK_DAYS;
    return step;
  },
  // Incentive cliffs: a calm pool (0.5–2 % a day) with one or two campaign ends at random days, each a sudden lasting
  // drop of 50–90 % (the liquidity that came for the rewards leaves and stays gone).
  cliffs: (rng, _base, days) => {
    const sigma = rng.between(0.005, 0.02);
    const cliffs = new Map<number, number>();
    for (let i = rng.int(1, 2); i > 0; i--) cliffs.set(rng.int(30, days - 1), Math.log(1 - rng.between(0.5, 0.9)));
    let lastDay = 0;
    const step = withParams(
      (x, day) => {
        lastDay = day;
        return x + sigma * normal(rng) + (cliffs.get(day) ?? 0);
      },
      { sigma, cliffs: cliffs.size },
    );
    step.calm = () => ![...cliffs.keys()].some((cliff) => cliff <= lastDay && lastDay - cliff < SHOCK_DAYS);
    return step;
  },
  // Heavy-tailed days: Student-t steps with 2–4 degrees of freedom, scale 1–4 % a day, weak pull to the level.
  heavyTails: (rng, base) => {
    const nu = rng.int(2, 4);
    const scale = rng.between(0.01, 0.04);
    const kappa = rng.between(0.005, 0.03);
    return withParams((x) => x + kappa * (base - x) + scale * studentT(rng, nu), { nu, scale, kappa });
  },
  // Strong uptrends: +0.2 % to +1 % a day, volatility 1–4 % a day.
  uptrend: (rng) => {
    const mu = rng.between(0.002, 0.01);
    const sigma = rng.between(0.01, 0.04);
    return withParams((x) => x + mu + sigma * normal(rng), { mu, sigma });
  },
  // A slow drain (the liquidity migrates to a new pool): a calm pool (0.5–2 % a day); in 7 pools of 10, from a random
  // day, it loses 40–90 % of its depth evenly (in log) over 10–60 days, and stays there.
  drain: (rng, _base, days) => {
    const sigma = rng.between(0.005, 0.02);
    const drains = rng.chance(0.7);
    const start = rng.int(30, days - 1);
    const length = rng.int(10, 60);
    const perDay = Math.log(1 - rng.between(0.4, 0.9)) / length;
    let lastDay = 0;
    const step = withParams(
      (x, day) => {
        lastDay = day;
        return x + sigma * normal(rng) + (drains && day >= start && day < start + length ? perDay : 0);
      },
      { sigma, drains: drains ? 1 : 0, start, length },
    );
    step.calm = () => !drains || lastDay < start || lastDay >= start + length + SHOCK_DAYS;
    return step;
  },
  // Volatility clusters: GARCH(1,1) days (long-run volatility 1–4 % a day; reaction α 5–15 %; persistence α + β
  // 0.90–0.98) and a weak pull to the level (0.5–2 % a day). Calm while the day's volatility is at most 1.5 times the
  // long-run one.
  clusters: (rng, base) => {
    const longRun = rng.between(0.01, 0.04);
    const alpha = rng.between(0.05, 0.15);
    const beta = rng.between(0.9, 0.98) - alpha;
    const kappa = rng.between(0.005, 0.02);
    const omega = longRun ** 2 * (1 - alpha - beta);
    let variance = longRun ** 2;
    const step = withParams(
      (x) => {
        const shock = Math.sqrt(variance) * normal(rng);
        variance = omega + alpha * shock ** 2 + beta * variance;
        return x + kappa * (base - x) + shock;
      },
      { longRun, alpha, beta, kappa },
    );
    step.calm = () => Math.sqrt(variance) <= 1.5 * longRun;
    return step;
  },
  // A large LP: one provider holds 30–70 % of a calm pool's depth (0.5–2 % a day); while in, it leaves on 0.5–3 % of
  // days; while out, it comes back on 2–10 % of days.
  whale: (rng, base) => {
    const sigma = rng.between(0.005, 0.02);
    const share = rng.between(0.3, 0.7);
    const leave = rng.between(0.005, 0.03);
    const back = rng.between(0.02, 0.1);
    let rest = base;
    let out = false;
    let sinceLeft = Number.POSITIVE_INFINITY;
    const step = withParams(
      () => {
        rest += sigma * normal(rng);
        sinceLeft++;
        if (out ? rng.chance(back) : rng.chance(leave)) {
          out = !out;
          if (out) sinceLeft = 0;
        }
        return rest + (out ? Math.log(1 - share) : 0);
      },
      { sigma, share, leave, back },
    );
    step.calm = () => sinceLeft >= SHOCK_DAYS;
    return step;
  },
};

const DAY_MS = 86_400_000;

/**
 * A family pool: its lows, whether the process was calm on each day (same order), and the parameters drawn for it
 * (e.g. the jumps family's daily `rate` of a jump), which no model reads.
 */
export type FamilyPool = EvaluatedPool & { calm: boolean[]; params: Readonly<Record<string, number>> };

/**
 * One pool of a family: `days` daily lows ending the day before `end` (Unix ms, a UTC midnight). The day's low is the
 * day's closing depth less an intraday dip of 0–2 %. A day is calm unless the process is stressed (regimes) or within
 * 14 days of a jump or a cliff. Deterministic in (family, seed, index).
 */
export function familyPool(family: Family, seed: number, index: number, days: number, end: number): FamilyPool {
  const rng = createPrng(mixPoolSeed(seed, ALL_FAMILIES.indexOf(family), index));
  const base = Math.log(rng.between(1e5, 1e7));
  const step = STEPS[family](rng, base, days);
  let x = base;
  const daily = [];
  const calm: boolean[] = [];
  for (let i = 0; i < days; i++) {
    x = step(x, i);
    calm.push(step.calm?.() ?? true);
    const low = Math.exp(x) * (1 - rng.between(0, 0.02));
    daily.push({ day: new Date(end - (days - i) * DAY_MS).toISOString().slice(0, 10), minDepthUsd: Math.round(low) });
  }
  return { pool: `${family}:${index}`, daily, calm, params: step.params };
}

/** `pools` pools of one family. */
export function familyPools(family: Family, seed: number, pools: number, days: number, end: number): FamilyPool[] {
  return Array.from({ length: pools }, (_, i) => familyPool(family, seed, i, days, end));
}

/** A mixed set: pool i is of family i mod 7 (each with its own parameters), so every family is in it. */
export function mixedPools(seed: number, pools: number, days: number, end: number): FamilyPool[] {
  return Array.from({ length: pools }, (_, i) => {
    const family = FAMILIES[i % FAMILIES.length];
    return { ...familyPool(family, seed, 1000 + i, days, end), pool: `mixed:${family}:${i}` };
  });
}

function mixPoolSeed(seed: number, family: number, index: number): number {
  return (
    (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^
      Math.imul(family + 1, 0xc2b2ae35) ^
      Math.imul(index + 1, 0x27d4eb2f)) >>>
    0
  );
}
