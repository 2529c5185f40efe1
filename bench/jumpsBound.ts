/**
 * `npm run bench:jumps-bound`: how much better than the climatology any forecaster could score on the jumps family,
 * where the issuing version's Brier score is level with it (docs/model.md#jumps-what-no-forecaster-can-see).
 *
 * On the issuing version's scored claims (their pools, days and horizons), the Brier score of:
 * - the issuing version, and the climatology (the evaluation's baseline);
 * - **the law and the pool's drops**: a forecaster told the family's law (`JUMPS` in bench/families.ts: a pool's daily
 *   chance of a jump uniform in 0.2–1 %, a jump's loss uniform in 40–85 %), reading the pool's drops up to the claim's
 *   day (a day's low below 60 % of the day before's), {@link lawForecast};
 * - **the pool's rate**: a forecaster told each pool's own jump rate, {@link holdGivenRate}.
 * Neither is rounded down to hundredths, as a signed confidence is: both are bounds on what a signed claim could score.
 * Each difference carries its 90 % interval, pools as clusters (`brierDifference90`, as the evaluation's).
 *
 * Environment: POOLS (default 300 per seed, the review's size), DAYS (default 450), SEEDS (default "1,2,3").
 */
import { ISSUER_RULE } from "../src/attest/refreshModelEvaluation";
import { climatology } from "../src/model/climatology";
import { brierDifference90, evaluateModelWithClaims, scoreGraded, type ScoredClaim } from "../src/model/evaluateModel";
import { ISSUING_MODEL } from "../src/model/horizon";
import { JUMPS, familyPools, type FamilyPool } from "./families";

/** Steps of the grid on which {@link lawForecast} integrates over the jump rate. */
const RATE_STEPS = 200;

/** The share of jumps that take more than `1 − floor` of the depth: the ones that break a claim on their own. */
export function breakingShare(floor: number): number {
  const [low, high] = JUMPS.loss;
  return Math.min(1, Math.max(0, (high - (1 - floor)) / (high - low)));
}

/** The chance that no breaking jump comes in `h` days at a daily jump rate `rate` (the pool's noise aside). */
export function holdGivenRate(rate: number, h: number, floor: number): number {
  return (1 - rate * breakingShare(floor)) ** h;
}

/**
 * The forecast of a forecaster told the jumps family's law: the mean of {@link holdGivenRate} over the pool's jump rate,
 * uniform in `JUMPS.rate` before any day is seen and weighted by the chance of `drops` jumps in `days` days.
 *
 * @param drops the jumps seen in the pool's history up to the claim's day.
 * @param days the days of history they were counted on.
 * @param h the claim's horizon.
 * @param floor the claim's floor (a share of the depth).
 */
export function lawForecast(drops: number, days: number, h: number, floor: number): number {
  const [low, high] = JUMPS.rate;
  const rates = Array.from({ length: RATE_STEPS + 1 }, (_, i) => low + ((high - low) * i) / RATE_STEPS);
  // The log-likelihood of the drops at each rate, less its largest: no underflow over long histories.
  const logs = rates.map((rate) => drops * Math.log(rate) + (days - drops) * Math.log(1 - rate));
  const top = Math.max(...logs);
  let weights = 0;
  let sum = 0;
  rates.forEach((rate, i) => {
    const weight = Math.exp(logs[i] - top);
    weights += weight;
    sum += weight * holdGivenRate(rate, h, floor);
  });
  return sum / weights;
}

/**
 * The pool's drops by day: entry i counts the days 1 … i whose low is below `1 − JUMPS.loss[0]` (60 %) of the day
 * before's, the smallest jump's mark.
 */
export function dropCounts(pool: FamilyPool): number[] {
  const mark = 1 - JUMPS.loss[0];
  const counts = [0];
  for (let i = 1; i < pool.daily.length; i++) {
    counts.push(counts[i - 1] + (pool.daily[i].minDepthUsd < mark * pool.daily[i - 1].minDepthUsd ? 1 : 0));
  }
  return counts;
}

function main(): void {
  const DAY_MS = 86_400_000;
  const POOLS = Number(process.env.POOLS ?? 300);
  const DAYS = Number(process.env.DAYS ?? 450);
  const SEEDS = (process.env.SEEDS ?? "1,2,3").split(",").map(Number);
  const END = Date.UTC(2026, 0, 1);
  const LAST_DAY = new Date(END - DAY_MS).toISOString().slice(0, 10);
  const rule = { ...ISSUER_RULE, model: ISSUING_MODEL };
  const format = (x: number) => x.toFixed(4);
  const signed = (x: number) => `${x < 0 ? "−" : "+"}${Math.abs(x).toFixed(4)}`;

  console.log(`jumps family, ${POOLS} pools × ${DAYS} days, ${ISSUING_MODEL.id}'s scored claims`);
  for (const seed of SEEDS) {
    const pools = familyPools("jumps", seed, POOLS, DAYS, END);
    const { evaluation, scored } = evaluateModelWithClaims(pools, rule, LAST_DAY);
    const forecast = climatology({ pools, floor: rule.floor }, LAST_DAY);
    const byPool = new Map(pools.map((pool) => [pool.pool, { pool, drops: dropCounts(pool), index: dayIndex(pool) }]));
    const told = (confidence: (claim: ScoredClaim) => number) =>
      scored.map((c) => ({ ...c, confidence: confidence(c) }));
    const forecasters: [string, ScoredClaim[]][] = [
      [ISSUING_MODEL.id, scored],
      [
        "the law and the pool's drops",
        told((c) => {
          const { drops, index } = byPool.get(c.pool)!;
          const d = index.get(c.asOf)!;
          return lawForecast(drops[d], d, c.horizon, rule.floor);
        }),
      ],
      ["the pool's rate", told((c) => holdGivenRate(byPool.get(c.pool)!.pool.params.rate, c.horizon, rule.floor))],
    ];
    // The evaluation's own scores: its baseline is the climatology, and any forecaster's Brier is scoreGraded's.
    const climatologyBrier = evaluation.baselineBrier!;
    console.log(`\nseed ${seed}: ${scored.length} scored claims; climatology ${format(climatologyBrier)}`);
    for (const [name, claims] of forecasters) {
      const brier = scoreGraded(claims).brier!;
      const interval = brierDifference90(claims, forecast)!;
      console.log(
        `  ${name.padEnd(36)} Brier ${format(brier)}  difference ${signed(brier - climatologyBrier)} (90 % [${signed(interval.low)}, ${signed(interval.high)}])`,
      );
    }
  }
}

function dayIndex(pool: FamilyPool): Map<string, number> {
  return new Map(pool.daily.map((d, i) => [d.day, i]));
}

if (require.main === module) main();
