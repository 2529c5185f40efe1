import { expect } from "chai";
import { MIN_EFFECTIVE_WINDOWS, SCORE_BINS, windowWeight, type Calibration } from "../../src/model/calibration";
import { evaluateModel, walkForward } from "../../src/model/evaluateModel";
import { MODEL_V2, MODEL_V4, MODEL_V5, computeHorizon, type WindowStats } from "../../src/model/horizon";
import { fitCalibration, PooledCalibrations } from "../../src/model/pooledCalibration";
import { PRIOR_STRENGTH, pooledPriorProbability } from "../../src/model/pooledPrior";
import { lowsSeries, seriesDay as day } from "../helpers/model/series";

const RULE = { floor: 0.5, target: 0.8 };

const stats = (h: number, windows: number, held: number): WindowStats => ({
  horizonDays: h,
  windows,
  held,
  sumLogRatio: 0,
  sumLogRatioSquared: 0,
});

/** A map too thin to fit (the prior decides) with `pooledWindows` effective windows at the rate `rate`. */
const thinMap = (h: number, pooledWindows: number, rate: number): Calibration => ({
  horizonDays: h,
  effectiveWindows: MIN_EFFECTIVE_WINDOWS - 1,
  probabilities: new Array(SCORE_BINS).fill(0.5),
  pooledWindows,
  pooledHeld: pooledWindows * rate,
});

describe("model v5: the pooled prior where the pooled map is too thin", function () {
  it("is v2 exactly with no pooled window (a lone pool)", function () {
    for (const h of [7, 14, 30, 90, 180]) {
      for (const [windows, held] of [
        [7, 7],
        [20, 17],
        [300, 290],
        [41, 0],
      ]) {
        const s = stats(h, windows, held);
        expect(MODEL_V5.confidenceHundredths(s, 0.5), `${h} ${windows} ${held}`).to.equal(
          MODEL_V2.confidenceHundredths(s, 0.5),
        );
        expect(MODEL_V5.confidenceHundredths(s, 0.5, [thinMap(h, 0, 0)])).to.equal(
          MODEL_V2.confidenceHundredths(s, 0.5),
        );
        expect(MODEL_V5.meetsTarget(s, 0.5, 800_000)).to.equal(MODEL_V2.meetsTarget(s, 0.5, 800_000));
      }
    }
  });

  it("shrinks the pool's own share towards the pooled rate, never above it, and by the own windows' weight", function () {
    // 11 windows of 7 days, all held: v2 says (22 + 7) / (22 + 14) = 0.805; a pooled rate of 0.97 lifts it.
    const own = stats(7, 11, 11);
    const map = thinMap(7, 500, 0.97);
    const rate = (500 * 0.97 + 1) / 502;
    const p = pooledPriorProbability(own, map);
    expect(p).to.be.closeTo(Math.min(rate, (22 / 7 + PRIOR_STRENGTH * rate) / (22 / 7 + PRIOR_STRENGTH)), 1e-12);
    expect(p).to.be.at.most(rate);
    expect(p).to.be.above(MODEL_V2.confidenceHundredths(own, 0.5) / 100);
    // Own windows that failed pull it below the pooled rate, the more the more of them.
    const some = pooledPriorProbability(stats(7, 70, 56), map);
    const more = pooledPriorProbability(stats(7, 70, 35), map);
    expect(some).to.be.below(rate);
    expect(more).to.be.below(some);
    // A low pooled rate keeps a clean pool below the target: thin evidence never claims more than other pools held.
    expect(pooledPriorProbability(stats(90, 40, 40), thinMap(90, 50, 0.7))).to.be.at.most((50 * 0.7 + 1) / 52);
    expect(MODEL_V5.meetsTarget(stats(90, 40, 40), 0.5, 800_000, [thinMap(90, 50, 0.7)])).to.equal(false);
  });

  it("reads the fitted map, as v4 does, where the horizon has the pooled evidence to fit it", function () {
    const fitted: Calibration[] = [7, 14, 30, 60, 90, 180].map((h) => ({
      horizonDays: h,
      effectiveWindows: 1000,
      probabilities: new Array(SCORE_BINS).fill(h <= 30 ? 0.87 : 0.6),
      pooledWindows: 1000,
      pooledHeld: 990,
    }));
    const daily = lowsSeries(3, 150);
    const depthNow = daily[daily.length - 1].minDepthUsd;
    const v5 = computeHorizon({ daily, depthNow, model: MODEL_V5, calibration: fitted });
    expect(v5).to.deep.include({ horizonDays: 30, confidence: 87 });
    expect(v5).to.deep.equal(computeHorizon({ daily, depthNow, model: MODEL_V4, calibration: fitted }));
  });

  it("counts every closed window of the other pools, scored or not, out of pool and out of time", function () {
    const pools = [1, 2, 3, 4].map((seed) => ({ pool: `p${seed}`, daily: lowsSeries(seed, 120) }));
    const asOf = day(40);
    const maps = fitCalibration(pools, RULE, asOf, "p1");
    const seven = maps.find((c) => c.horizonDays === 7)!;
    // By day 40 each other pool has windows starting on days 0 … 33 closed (34 each); only those starting once the pool
    // had 7 windows closed (day 13 on) are scored.
    const weight = windowWeight(7);
    expect(seven.pooledWindows).to.be.closeTo(3 * 34 * weight, 1e-9);
    expect(seven.effectiveWindows).to.be.closeTo(3 * 21 * weight, 1e-9);
    expect(seven.pooledHeld!).to.be.at.most(seven.pooledWindows!);
    // Days after the claim's day and the pool's own days are never read.
    const changed = pools.map((p) => ({
      ...p,
      daily: p.daily.map((d) => (p.pool === "p1" || d.day > asOf ? { ...d, minDepthUsd: 1 } : d)),
    }));
    expect(fitCalibration(changed, RULE, asOf, "p1")).to.deep.equal(maps);
    // The walk forward's maps are the same.
    const pooled = new PooledCalibrations(pools, RULE, day(119));
    expect(pooled.forPool("p1")(Date.parse(`${asOf}T00:00:00Z`) / 86_400_000)).to.deep.equal(maps);
  });

  it("claims in the first weeks where v4's prior, one half, made v2's short claims, and the walk forward agrees", function () {
    const lastDay = day(119);
    const pools = [1, 7, 42, 5, 9, 11].map((seed) => ({
      pool: `p${seed}`,
      daily: lowsSeries(seed, 120, { swing: 0.01, dipChance: 0 }),
    }));
    const v5 = { ...RULE, model: MODEL_V5 };
    const pooled = new PooledCalibrations(pools, v5, lastDay);
    for (const pool of pools) {
      const claims = walkForward(pool, v5, lastDay, pooled.forPool(pool.pool));
      // Each claim as computeHorizon makes it on the days up to its day, with the maps issuance would fit.
      for (const claim of claims.filter((_, i) => i % 9 === 0)) {
        const daily = pool.daily.filter((d) => d.day <= claim.asOf);
        const result = computeHorizon({
          daily,
          depthNow: daily[daily.length - 1].minDepthUsd,
          model: MODEL_V5,
          calibration: fitCalibration(pools, v5, claim.asOf, pool.pool),
        });
        expect({ horizon: result.horizonDays, confidence: result.confidence }).to.deep.equal({
          horizon: claim.horizon,
          confidence: Math.round(claim.confidence * 100),
        });
      }
    }
    const early = (rule: typeof v5) =>
      pools.flatMap((pool) => walkForward(pool, rule, day(30), pooled.forPool(pool.pool)));
    const v4Early = early({ ...RULE, model: MODEL_V4 });
    const v5Early = early(v5);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(v5Early.length).to.be.at.least(v4Early.length);
    expect(mean(v5Early.map((c) => c.confidence))).to.be.above(mean(v4Early.map((c) => c.confidence)));
    expect(evaluateModel(pools, v5, lastDay).claims).to.be.greaterThan(0);
  });
});
