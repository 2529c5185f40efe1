import { expect } from "chai";
import {
  evaluateModel,
  evaluateModelWithClaims,
  walkForward,
  wilsonInterval,
  SAMPLE_SIZE,
} from "../../src/model/evaluateModel";
import { fitCalibration, PooledCalibrations } from "../../src/model/pooledCalibration";
import {
  HORIZON_MODELS,
  MODEL_V1,
  MODEL_V2,
  MODEL_V3,
  MODEL_V4,
  computeHorizon,
  countWindow,
  normalCdf,
  type WindowStats,
} from "../../src/model/horizon";
import { lowsSeries, seriesDay as day } from "../helpers/model/series";

const RULE = { floor: 0.5, target: 0.8 };

describe("walk-forward evaluation of the horizon model", function () {
  for (const model of HORIZON_MODELS) {
    it(`${model.id}: as of each day, claims exactly what computeHorizon says on the days up to it, anchored on that day's low`, function () {
      walkForwardMatchesComputeHorizon(model);
    });
  }

  it("v4 in evaluateModel reads each pool's calibration from the other pools, and claims nothing without one", function () {
    const lastDay = day(149);
    const pools = [1, 7, 42, 5, 9].map((seed) => ({
      pool: `p${seed}`,
      daily: lowsSeries(seed, 150, { gapEvery: seed % 3 === 0 ? 0 : 11 }),
    }));
    const rule = { ...RULE, model: MODEL_V4 };
    const evaluation = evaluateModel(pools, rule, lastDay);
    const pooled = new PooledCalibrations(pools, rule, lastDay);
    const claims = pools.flatMap((pool) => walkForward(pool, rule, lastDay, pooled.forPool(pool.pool)));
    expect(evaluation.claims).to.equal(claims.length);
    expect(evaluation.claims).to.be.greaterThan(50);
    expect(evaluation.scored).to.equal(claims.filter((c) => c.held !== null).length);
    // Alone, a pool has no other pools to read: v4 makes no claim (v3 does).
    expect(evaluateModel([pools[0]], rule, lastDay).claims).to.equal(0);
    expect(evaluateModel([pools[0]], { ...RULE, model: MODEL_V3 }, lastDay).claims).to.be.greaterThan(0);
    expect(walkForward(pools[0], rule, lastDay)).to.deep.equal([]);
  });

  it("v2 shrinks a share measured on few independent windows: v1's certainty on a long horizon is not v2's", function () {
    // 30 windows of 90 days that all held: v1 says 1.00; v2 counts them as 2·30/90 trials: (60 + 90) / (60 + 180).
    const held = (windows: number, h: number): WindowStats => ({
      horizonDays: h,
      windows,
      held: windows,
      sumLogRatio: 0,
      sumLogRatioSquared: 0,
    });
    expect(MODEL_V1.confidenceHundredths(held(30, 90), 0.5)).to.equal(100);
    expect(MODEL_V2.confidenceHundredths(held(30, 90), 0.5)).to.equal(62);
    expect(MODEL_V2.meetsTarget(held(30, 90), 0.5, 800_000)).to.equal(false);
    // Many 7-day windows that held: v2 stays high.
    expect(MODEL_V2.confidenceHundredths(held(350, 7), 0.5)).to.equal(99);
    expect(MODEL_V2.meetsTarget(held(350, 7), 0.5, 800_000)).to.equal(true);
  });

  it("v3 reads the margin: windows that all held but came close to the floor score lower than windows that never moved", function () {
    // Both pools: 60 windows of 14 days, all held. One never fell more than a few percent, the other to 55 %.
    const steady = stats(14, [0.97, 0.95, 0.99, 0.96]);
    const close = stats(14, [0.55, 0.9, 0.6, 0.95]);
    expect(steady.held).to.equal(60);
    expect(close.held).to.equal(60);
    expect(MODEL_V1.confidenceHundredths(steady, 0.5)).to.equal(MODEL_V1.confidenceHundredths(close, 0.5));
    const steadyConfidence = MODEL_V3.confidenceHundredths(steady, 0.5);
    const closeConfidence = MODEL_V3.confidenceHundredths(close, 0.5);
    expect(steadyConfidence).to.be.greaterThan(closeConfidence);
    // By hand: steady's log ratios have a spread below the 0.1 minimum, so s = 0.1 · √(1 + 14/120).
    const mean = (Math.log(0.97) + Math.log(0.95) + Math.log(0.99) + Math.log(0.96)) / 4;
    const z = (mean - Math.log(0.5)) / (0.1 * Math.sqrt(1 + 1 / ((2 * 60) / 14)));
    expect(steadyConfidence).to.equal(Math.floor(normalCdf(z) * 100 + 1e-9));
    expect(MODEL_V3.meetsTarget(steady, 0.5, 800_000)).to.equal(true);
    expect(MODEL_V3.meetsTarget(close, 0.5, 800_000)).to.equal(closeConfidence >= 80);
  });

  it("normalCdf is the standard normal distribution function to 1e-9", function () {
    for (const [z, phi] of [
      [0, 0.5],
      [1, 0.8413447461],
      [-1, 0.1586552539],
      [1.644853627, 0.95],
      [-2.326347874, 0.01],
      [3, 0.998650102],
    ]) {
      expect(Math.abs(normalCdf(z) - phi), `Φ(${z})`).to.be.below(1e-9);
    }
  });

  /** 60 windows of h days whose drawdown ratios cycle through `ratios` (all above 0.5: all held). */
  function stats(h: number, ratios: number[]): WindowStats {
    const out: WindowStats = { horizonDays: h, windows: 0, held: 0, sumLogRatio: 0, sumLogRatioSquared: 0 };
    for (let i = 0; i < 60; i++) countWindow(out, ratios[i % ratios.length] >= 0.5, ratios[i % ratios.length]);
    return out;
  }

  function walkForwardMatchesComputeHorizon(model: (typeof HORIZON_MODELS)[number]): void {
    const sets = [
      [1, 0],
      [7, 11],
      [42, 37],
    ];
    const lastDay = day(149);
    // A pooled version reads other pools' windows: the three series and two more are the tracked pools.
    const pools = [...sets, [5, 0], [9, 13]].map(([seed, gap]) => ({
      pool: `p${seed}`,
      daily: lowsSeries(seed, 150, { gapEvery: gap }),
    }));
    const pooled = new PooledCalibrations(pools, RULE, lastDay);
    for (const [seed] of sets) {
      const { daily } = pools.find((p) => p.pool === `p${seed}`)!;
      const calibrationAt = model.pooled ? pooled.forPool(`p${seed}`) : undefined;
      const claims = new Map(
        walkForward({ pool: `p${seed}`, daily }, { ...RULE, model }, lastDay, calibrationAt).map((c) => [c.asOf, c]),
      );
      let made = 0;
      for (const entry of daily) {
        const upTo = daily.filter((d) => d.day <= entry.day);
        const calibration = model.pooled ? fitCalibration(pools, RULE, entry.day, `p${seed}`) : undefined;
        const expected = computeHorizon({ daily: upTo, depthNow: entry.minDepthUsd, ...RULE, model, calibration });
        const claim = claims.get(entry.day);
        if (expected.horizonDays === null) {
          expect(claim, `${seed} ${entry.day}`).to.equal(undefined);
          continue;
        }
        made++;
        expect(claim, `${seed} ${entry.day}`).to.deep.include({
          horizon: expected.horizonDays,
          confidence: expected.confidence! / 100,
          floorUsd: 0.5 * entry.minDepthUsd,
        });
      }
      expect(made, `seed ${seed} makes claims`).to.be.greaterThan(5);
      expect(claims.size).to.equal(made);
    }
  }

  it("scores a claim once its window has closed: held when every observed low in it is at or above the floor", function () {
    const daily = lowsSeries(3, 120, { gapEvery: 9 });
    const lows = new Map(daily.map((d) => [d.day, d.minDepthUsd]));
    const lastIndex = 119;
    const claims = walkForward({ pool: "p", daily }, RULE, day(lastIndex));
    let open = 0;
    let scored = 0;
    for (const claim of claims) {
      const start = (Date.parse(`${claim.asOf}T00:00:00Z`) - Date.UTC(2026, 0, 1)) / 86_400_000;
      const window = Array.from({ length: claim.horizon }, (_, k) => lows.get(day(start + 1 + k))).filter(
        (v): v is number => v !== undefined,
      );
      if (start + claim.horizon > lastIndex) {
        expect(claim.held).to.equal(null);
        open++;
      } else {
        expect(claim.held).to.equal(window.every((v) => v >= claim.floorUsd));
        scored++;
      }
    }
    expect(open).to.be.greaterThan(0);
    expect(scored).to.be.greaterThan(0);
  });

  it("a claim never looks ahead: its days after the claim change its outcome, never the claim", function () {
    const daily = lowsSeries(5, 120);
    const cut = day(80);
    const before = walkForward({ pool: "p", daily: daily.filter((d) => d.day <= cut) }, RULE, day(119));
    const full = walkForward({ pool: "p", daily }, RULE, day(119));
    const strip = (c: { asOf: string; horizon: number; confidence: number; floorUsd: number }) => [
      c.asOf,
      c.horizon,
      c.confidence,
      c.floorUsd,
    ];
    expect(full.filter((c) => c.asOf <= cut).map(strip)).to.deep.equal(before.map(strip));
  });

  it("the Brier score, the baseline, the buckets and the horizons add up from the scored claims", function () {
    const pools = [1, 2, 3, 4].map((seed) => ({
      pool: `eip155:1:0x${seed}`,
      daily: lowsSeries(seed, 140, { gapEvery: seed === 1 ? 0 : 30 + seed }),
    }));
    const evaluation = evaluateModel(pools, RULE, day(139));
    const claims = pools.flatMap((pool) => walkForward(pool, RULE, day(139)));
    const scored = claims.filter((c) => c.held !== null);
    expect(evaluation.claims).to.equal(claims.length);
    expect(evaluation.scored).to.equal(scored.length);
    expect(evaluation.held).to.equal(scored.filter((c) => c.held).length);
    const rate = evaluation.held / evaluation.scored;
    const brier = scored.reduce((s, c) => s + (c.confidence - (c.held ? 1 : 0)) ** 2, 0) / scored.length;
    const baseline = scored.reduce((s, c) => s + (rate - (c.held ? 1 : 0)) ** 2, 0) / scored.length;
    expect(evaluation.brier).to.be.closeTo(brier, 1e-6);
    expect(evaluation.baselineBrier).to.be.closeTo(baseline, 1e-6);
    expect(evaluation.buckets.reduce((s, b) => s + b.n, 0)).to.equal(scored.length);
    for (const bucket of evaluation.buckets) {
      expect(bucket.meanConfidence).to.be.at.least(bucket.from).and.at.most(bucket.to);
    }
    expect(evaluation.byHorizon.reduce((s, b) => s + b.n, 0)).to.equal(scored.length);
    expect(evaluation.sample).to.have.length(Math.min(SAMPLE_SIZE, scored.length));
    expect(evaluation.asOf).to.equal(day(139));
  });

  it("no history: no claims and null scores", function () {
    expect(evaluateModel([], RULE, day(10))).to.deep.include({ asOf: null, claims: 0, scored: 0, brier: null });
  });
});

describe("calibration buckets: effective sample size and 90 % interval", function () {
  it("counts an h-day claim as min(1, 2/h) of an independent one, and gives the Wilson interval on that n", function () {
    const lastDay = day(179);
    const pools = [2, 11, 23].map((seed) => ({ pool: `p${seed}`, daily: lowsSeries(seed, 180) }));
    const { evaluation, scored } = evaluateModelWithClaims(pools, { ...RULE, model: MODEL_V3 }, lastDay);
    expect(evaluation.buckets.length).to.be.greaterThan(0);
    for (const bucket of evaluation.buckets) {
      const group = scored.filter((c) => {
        const index = Math.min(19, Math.floor(Math.round(c.confidence * 100) / 5));
        return Math.abs(index * 0.05 - bucket.from) < 1e-9;
      });
      expect(group).to.have.length(bucket.n);
      const effective = group.reduce((sum, c) => sum + Math.min(1, 2 / c.horizon), 0);
      expect(bucket.effectiveN).to.be.closeTo(effective, 1e-6);
      expect(bucket.effectiveN).to.be.at.most(bucket.n);
      expect(bucket.interval90.low).to.be.at.most(bucket.holdRate + 1e-6);
      expect(bucket.interval90.high).to.be.at.least(bucket.holdRate - 1e-6);
      const expected = wilsonInterval(bucket.holdRate, effective);
      expect(bucket.interval90.low).to.be.closeTo(expected.low, 2e-6);
      expect(bucket.interval90.high).to.be.closeTo(expected.high, 2e-6);
    }
  });

  it("wilsonInterval: known values, and [0, 1] on no evidence", function () {
    // 8 of 10 at z = 1.6449: centre 0.7361, half-width 0.1953.
    const { low, high } = wilsonInterval(0.8, 10);
    expect(low).to.be.closeTo(0.5408, 1e-3);
    expect(high).to.be.closeTo(0.9314, 1e-3);
    // All held on 4 effective trials: the interval still reaches well below 1.
    expect(wilsonInterval(1, 4).low).to.be.closeTo(0.5965, 1e-3);
    expect(wilsonInterval(1, 4).high).to.equal(1);
    expect(wilsonInterval(0.5, 0)).to.deep.equal({ low: 0, high: 1 });
  });
});
