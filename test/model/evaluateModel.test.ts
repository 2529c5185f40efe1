import { expect } from "chai";
import { climatology, CLIMATOLOGY_PRIOR } from "../../src/model/climatology";
import {
  evaluateModel,
  evaluateModelWithClaims,
  gradeWindow,
  isScored,
  walkForward,
  wilsonInterval,
  clusteredInterval,
  SAMPLE_SIZE,
  type EvaluatedClaim,
} from "../../src/model/evaluateModel";
import { gradeClaim } from "../../src/model/gradeClaim";
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

  it("v4 in evaluateModel reads each pool's calibration from the other pools, and the conservative prior without one", function () {
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
    expect(evaluation.scored).to.equal(claims.filter(isScored).length);
    // Alone, a pool has no other pools to read: v4 claims what the conservative prior, v2, claims.
    const alone = walkForward(pools[0], rule, lastDay);
    expect(alone.length).to.be.greaterThan(0);
    expect(alone).to.deep.equal(walkForward(pools[0], { ...RULE, model: MODEL_V2 }, lastDay));
    expect(evaluateModel([pools[0]], rule, lastDay).claims).to.equal(alone.length);
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
    const rule = { ...RULE, model };
    const pooled = new PooledCalibrations(pools, rule, lastDay);
    for (const [seed] of sets) {
      const { daily } = pools.find((p) => p.pool === `p${seed}`)!;
      const calibrationAt = model.pooled ? pooled.forPool(`p${seed}`) : undefined;
      const claims = new Map(
        walkForward({ pool: `p${seed}`, daily }, rule, lastDay, calibrationAt).map((c) => [c.asOf, c]),
      );
      let made = 0;
      for (const entry of daily) {
        const upTo = daily.filter((d) => d.day <= entry.day);
        const calibration = model.pooled ? fitCalibration(pools, rule, entry.day, `p${seed}`) : undefined;
        const expected = computeHorizon({ daily: upTo, depthNow: entry.minDepthUsd, ...rule, calibration });
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

  it("grades every claim by the accuracy record's rule (gradeClaim): pending, held, failed or void", function () {
    const daily = lowsSeries(3, 120, { gapEvery: 9 });
    const lows = new Map(daily.map((d) => [d.day, d.minDepthUsd]));
    const lastIndex = 119;
    const claims = walkForward({ pool: "p", daily }, { ...RULE, model: MODEL_V3 }, day(lastIndex));
    const seen = new Map<string, number>();
    for (const claim of claims) {
      const grade = gradeClaim(
        { issuedDay: claim.asOf, horizon: claim.horizon, floorUsd: claim.floorUsd },
        (d) => lows.get(d) ?? null,
        day(lastIndex),
      );
      expect(claim.outcome, `${claim.asOf} ${claim.horizon}`).to.equal(grade.outcome);
      seen.set(claim.outcome, (seen.get(claim.outcome) ?? 0) + 1);
    }
    // A gap every 9 days: every closed window of 9 days or more has one, so none of them holds.
    expect(seen.get("pending")).to.be.greaterThan(0);
    expect(seen.get("void")).to.be.greaterThan(0);
    expect(seen.get("held") ?? 0).to.equal(
      claims.filter((c) => c.outcome === "held" && c.horizon < 9).length,
      "a held claim has no gap in its window",
    );
  });

  it("gradeWindow, the evaluation's array loop, gives gradeClaim's outcome on random series with gaps", function () {
    let state = 7;
    const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
    const counts = new Map<string, number>();
    for (let trial = 0; trial < 400; trial++) {
      const span = 20 + Math.floor(next() * 40);
      const gapShare = [0, 0.02, 0.1, 0.4][trial % 4];
      const low = new Float64Array(span);
      for (let i = 0; i < span; i++) low[i] = next() < gapShare ? Number.NaN : Math.round(next() * 1000);
      const lows = new Map<string, number>();
      low.forEach((value, i) => {
        if (!Number.isNaN(value)) lows.set(day(i), value);
      });
      const lastIndex = Math.floor(next() * span);
      for (let k = 0; k < 10; k++) {
        const d = Math.floor(next() * span);
        const h = 1 + Math.floor(next() * 14);
        const floorUsd = Math.round(next() * 600);
        const fast = gradeWindow(low, d, h, floorUsd, lastIndex);
        const rule = gradeClaim(
          { issuedDay: day(d), horizon: h, floorUsd },
          (x) => lows.get(x) ?? null,
          day(lastIndex),
        );
        expect(fast, `trial ${trial}: d ${d} h ${h} floor ${floorUsd}`).to.equal(rule.outcome);
        counts.set(fast, (counts.get(fast) ?? 0) + 1);
      }
    }
    for (const outcome of ["pending", "held", "failed", "void"]) expect(counts.get(outcome)).to.be.greaterThan(20);
  });

  it("anchors the floor on the depth the day's attestation states, not the day's low", function () {
    // Flat at 1,000 with a dip to 700 on day 60: anchored on the low (1,000) the floor is 500 and every claim holds;
    // the attestation of day 50 stated 1,500 (floor 750), so its claim fails on day 60.
    const daily = Array.from({ length: 90 }, (_, i) => ({ day: day(i), minDepthUsd: i === 60 ? 700 : 1000 }));
    const lastDay = day(89);
    const plain = walkForward({ pool: "p", daily }, RULE, lastDay);
    const anchored = walkForward({ pool: "p", daily, depths: [{ day: day(50), depthUsd: 1500 }] }, RULE, lastDay);
    const of = (claims: EvaluatedClaim[]) => claims.find((c) => c.asOf === day(50))!;
    expect(of(plain)).to.include({ floorUsd: 500, outcome: "held" });
    expect(of(anchored)).to.include({ floorUsd: 750, outcome: "failed" });
    expect(of(anchored).horizon).to.equal(of(plain).horizon).and.to.be.at.least(14);
    // Every other day's claim is unchanged: the stated depth anchors its own day only.
    const others = (claims: EvaluatedClaim[]) => claims.filter((c) => c.asOf !== day(50));
    expect(others(anchored)).to.deep.equal(others(plain));
    // The evaluation counts it: one held claim fewer, one failed more.
    const before = evaluateModel([{ pool: "p", daily }], RULE, lastDay);
    const after = evaluateModel([{ pool: "p", daily, depths: [{ day: day(50), depthUsd: 1500 }] }], RULE, lastDay);
    expect(after.held).to.equal(before.held - 1);
    expect(after.scored).to.equal(before.scored);
  });

  it("a day with a stated depth and no observed low still makes its claim, anchored on that depth", function () {
    const daily = Array.from({ length: 90 }, (_, i) => ({ day: day(i), minDepthUsd: 1000 })).filter((_, i) => i !== 40);
    const lastDay = day(89);
    const plain = walkForward({ pool: "p", daily }, RULE, lastDay);
    expect(plain.find((c) => c.asOf === day(40))).to.equal(undefined);
    const stated = walkForward({ pool: "p", daily, depths: [{ day: day(40), depthUsd: 1200 }] }, RULE, lastDay);
    const claim = stated.find((c) => c.asOf === day(40))!;
    expect(claim).to.include({ floorUsd: 600, outcome: "held" });
    // The model's windows are those closed by day 40 either way: the claim is the one of day 39's history.
    expect(claim.horizon).to.equal(plain.find((c) => c.asOf === day(39))!.horizon);
    // A stated depth of 0 makes no claim, as issuance makes none without a depth.
    const zero = walkForward({ pool: "p", daily, depths: [{ day: day(30), depthUsd: 0 }] }, RULE, lastDay);
    expect(zero.find((c) => c.asOf === day(30))).to.equal(undefined);
  });

  it("caps the horizon at a known campaign end as computeHorizon does at 00:00 UTC of the claim's day", function () {
    const daily = lowsSeries(1, 150);
    const lastDay = day(149);
    const end = Date.parse(`${day(100)}T00:00:00Z`) / 1000;
    const plain = walkForward({ pool: "p", daily }, RULE, lastDay);
    const capped = walkForward({ pool: "p", daily, campaignEnds: [end] }, RULE, lastDay);
    let shortened = 0;
    const cappedByDay = new Map(capped.map((c) => [c.asOf, c]));
    for (const entry of daily) {
      const now = Date.parse(`${entry.day}T00:00:00Z`) / 1000;
      const upTo = daily.filter((d) => d.day <= entry.day);
      const expected = computeHorizon({ daily: upTo, depthNow: entry.minDepthUsd, ...RULE, campaignEnds: [end], now });
      const claim = cappedByDay.get(entry.day);
      if (expected.horizonDays === null) expect(claim, entry.day).to.equal(undefined);
      else
        expect(claim, entry.day).to.deep.include({
          horizon: expected.horizonDays,
          confidence: expected.confidence! / 100,
        });
    }
    for (const claim of plain) {
      const after = cappedByDay.get(claim.asOf);
      const daysLeft = 100 - (Date.parse(`${claim.asOf}T00:00:00Z`) - Date.UTC(2026, 0, 1)) / 86_400_000;
      if (daysLeft <= 0) expect(after).to.deep.equal(claim);
      else if (claim.horizon > daysLeft) {
        shortened++;
        if (after !== undefined) expect(after.horizon).to.be.at.most(daysLeft);
      }
    }
    expect(shortened, "the cap shortens some claims").to.be.greaterThan(5);
  });

  it("a window with a day without an observed low is void: never held, counted, left out of the scores", function () {
    // Flat at 1,000: every window holds, except that day 70 is missing.
    const daily = Array.from({ length: 100 }, (_, i) => ({ day: day(i), minDepthUsd: 1000 })).filter(
      (_, i) => i !== 70,
    );
    const lastDay = day(99);
    const { evaluation, scored } = evaluateModelWithClaims([{ pool: "p", daily }], RULE, lastDay);
    const claims = walkForward({ pool: "p", daily }, RULE, lastDay);
    const covering = claims.filter((c) => {
      const d = (Date.parse(`${c.asOf}T00:00:00Z`) - Date.UTC(2026, 0, 1)) / 86_400_000;
      return d < 70 && d + c.horizon >= 70 && d + c.horizon <= 99;
    });
    expect(covering.length).to.be.greaterThan(0);
    for (const claim of covering) expect(claim.outcome).to.equal("void");
    expect(evaluation.void).to.equal(covering.length);
    expect(evaluation.scored + evaluation.void + claims.filter((c) => c.outcome === "pending").length).to.equal(
      evaluation.claims,
    );
    expect(scored.every((c) => c.outcome === "held")).to.equal(true);
    expect(evaluation.held).to.equal(evaluation.scored);
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
    const evaluation = evaluateModel(pools, { ...RULE, model: MODEL_V3 }, day(139));
    const claims = pools.flatMap((pool) => walkForward(pool, { ...RULE, model: MODEL_V3 }, day(139)));
    const scored = claims.filter(isScored);
    const outcome = (c: EvaluatedClaim) => (c.outcome === "held" ? 1 : 0);
    expect(evaluation.claims).to.equal(claims.length);
    expect(evaluation.scored).to.equal(scored.length);
    expect(evaluation.held).to.equal(scored.filter((c) => c.outcome === "held").length);
    expect(evaluation.void).to.equal(claims.filter((c) => c.outcome === "void").length);
    const brier = scored.reduce((s, c) => s + (c.confidence - outcome(c)) ** 2, 0) / scored.length;
    // The baseline: each claim forecast by the pooled hold rate of windows of its horizon closed by its day, counted
    // here the slow way.
    const baseline =
      scored.reduce((s, c) => s + (naiveClimatology(pools, c.asOf, c.horizon) - outcome(c)) ** 2, 0) / scored.length;
    expect(evaluation.brier).to.be.closeTo(brier, 1e-6);
    expect(evaluation.baselineBrier).to.be.closeTo(baseline, 1e-6);
    // The difference's interval, by hand: per pool, the sum of each claim's squared-error difference less the mean.
    const differences = scored.map(
      (c) => (c.confidence - outcome(c)) ** 2 - (naiveClimatology(pools, c.asOf, c.horizon) - outcome(c)) ** 2,
    );
    const center = differences.reduce((s, d) => s + d, 0) / scored.length;
    const perPool = new Map<string, number>();
    scored.forEach((c, i) => perPool.set(c.pool, (perPool.get(c.pool) ?? 0) + differences[i] - center));
    const g = perPool.size;
    const half =
      (1.6449 * Math.sqrt((g / (g - 1)) * [...perPool.values()].reduce((s, v) => s + v * v, 0))) / scored.length;
    expect(g).to.be.at.least(2);
    expect(center).to.be.closeTo(brier - baseline, 1e-9);
    expect(evaluation.brierDifference90!.low).to.be.closeTo(center - half, 1e-5);
    expect(evaluation.brierDifference90!.high).to.be.closeTo(center + half, 1e-5);
    expect(evaluateModel([], { ...RULE, model: MODEL_V3 }, day(139)).brierDifference90).to.equal(null);
    expect(evaluation.buckets.reduce((s, b) => s + b.n, 0)).to.equal(scored.length);
    for (const bucket of evaluation.buckets) {
      expect(bucket.meanConfidence).to.be.at.least(bucket.from).and.at.most(bucket.to);
    }
    expect(evaluation.byHorizon.reduce((s, b) => s + b.n, 0)).to.equal(scored.length);
    expect(evaluation.sample).to.have.length(Math.min(SAMPLE_SIZE, scored.length));
    expect(evaluation.asOf).to.equal(day(139));
  });

  it("the climatology is knowable on the claim's day: changing lows after it changes none of its forecasts", function () {
    const pools = [1, 2, 3].map((seed) => ({ pool: `p${seed}`, daily: lowsSeries(seed, 160, { gapEvery: 17 }) }));
    const cut = 90;
    const perturbed = pools.map((pool) => ({
      pool: pool.pool,
      daily: pool.daily.map((d) => (d.day > day(cut) ? { ...d, minDepthUsd: d.minDepthUsd * 0.3 } : d)),
    }));
    const before = climatology({ pools, floor: 0.5 }, day(159));
    const after = climatology({ pools: perturbed, floor: 0.5 }, day(159));
    for (let d = 10; d <= 159; d += 3) {
      for (const h of [7, 14, 30, 60]) {
        const expected = naiveClimatology(pools, day(d), h);
        expect(before(day(d), h), `${day(d)} ${h}`).to.be.closeTo(expected, 1e-12);
        if (d <= cut) expect(after(day(d), h), `${day(d)} ${h}`).to.equal(before(day(d), h));
      }
    }
    // Later days do change: the 30 % lows break windows that close after the cut.
    expect(after(day(159), 7)).to.be.below(before(day(159), 7));
    // Before any window closed: the prior.
    expect(before(day(3), 7)).to.equal(CLIMATOLOGY_PRIOR);
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

  it("clusteredInterval: the cluster-robust interval of a mean, by hand; one term a cluster is the usual t-free interval", function () {
    // Mean 4; cluster sums of deviations −4 (a: 1, 3), 1 (b: 5), 3 (c: 7); √(3/2 · 26) / 4 = 1.5612; × 1.6449 = 2.5680.
    const grouped = clusteredInterval([
      { cluster: "a", value: 1 },
      { cluster: "a", value: 3 },
      { cluster: "b", value: 5 },
      { cluster: "c", value: 7 },
    ]);
    expect(grouped.low).to.be.closeTo(4 - 2.568, 1e-3);
    expect(grouped.high).to.be.closeTo(4 + 2.568, 1e-3);
    // Each term its own cluster: the sample standard deviation over √n (2.5820 / 2 = 1.2910), × 1.6449.
    const single = clusteredInterval([1, 3, 5, 7].map((value, i) => ({ cluster: String(i), value })));
    expect(single.high - 4).to.be.closeTo(1.291 * 1.6449, 1e-3);
    // Terms that move together in a cluster widen it: the same values, two clusters of alike terms.
    const alike = clusteredInterval([
      { cluster: "a", value: 1 },
      { cluster: "a", value: 3 },
      { cluster: "b", value: 5 },
      { cluster: "b", value: 7 },
    ]);
    expect(alike.high - 4).to.be.greaterThan(single.high - 4);
    expect(
      clusteredInterval([
        { cluster: "a", value: 1 },
        { cluster: "a", value: 2 },
      ]).low,
    ).to.be.NaN;
  });
});

/**
 * The pooled hold rate of every pool's h-day windows (start s observed, s+1 … s+h all observed) closed by `asOf`, held
 * at 0.5 × the low of s, counted window by window; 0.5 with none.
 */
function naiveClimatology(pools: { daily: { day: string; minDepthUsd: number }[] }[], asOf: string, h: number): number {
  let windows = 0;
  let held = 0;
  for (const pool of pools) {
    const lows = new Map(pool.daily.map((d) => [d.day, d.minDepthUsd]));
    for (const [start, reference] of lows) {
      const n = (Date.parse(`${start}T00:00:00Z`) - Date.UTC(2026, 0, 1)) / 86_400_000;
      if (day(n + h) > asOf) continue;
      const window = Array.from({ length: h }, (_, k) => lows.get(day(n + 1 + k)));
      if (window.some((v) => v === undefined)) continue;
      windows++;
      if (window.every((v) => v! >= 0.5 * reference)) held++;
    }
  }
  return windows === 0 ? 0.5 : held / windows;
}
