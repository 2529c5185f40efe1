import { expect } from "chai";
import { FAMILIES, JUMPS, LATER_FAMILIES, familyPool, familyPools, mixedPools } from "../../bench/families";
import { breakingShare, dropCounts, holdGivenRate, lawForecast } from "../../bench/jumpsBound";
import {
  calibrate,
  emptyCounts,
  isotonicFit,
  MIN_EFFECTIVE_WINDOWS,
  PRIOR_PROBABILITY,
  PRIOR_WEIGHT,
  scoreBin,
  SCORE_BINS,
  type Calibration,
} from "../../src/model/calibration";
import { MODEL_V2, MODEL_V4, computeHorizon, type DailyDepth } from "../../src/model/horizon";
import { fitCalibration } from "../../src/model/pooledCalibration";
import { lowsSeries, seriesDay as day } from "../helpers/model/series";

const RULE = { floor: 0.5 };

const isMonotone = (values: readonly number[]) => values.every((v, i) => i === 0 || v >= values[i - 1] - 1e-12);

describe("pooled calibration (model v4)", function () {
  describe("isotonicFit (pool-adjacent violators)", function () {
    it("fits known inputs", function () {
      expect(isotonicFit([1, 3, 2, 4], [1, 1, 1, 1])).to.deep.equal([1, 2.5, 2.5, 4]);
      expect(isotonicFit([3, 2, 1], [1, 1, 1])).to.deep.equal([2, 2, 2]);
      // Weighted: the violator pair (1, 0) with weights 1 and 3 pools to 0.25.
      expect(isotonicFit([0, 1, 0], [1, 1, 3])).to.deep.equal([0, 0.25, 0.25]);
      // A later violator reaches back over two blocks: (0.9, 0.5, 0.8, 0.1) → one block of mean 0.575.
      expect(isotonicFit([0.9, 0.5, 0.8, 0.1], [1, 1, 1, 1])).to.deep.equal([0.575, 0.575, 0.575, 0.575]);
      expect(isotonicFit([0.2, 0.4, 0.9], [5, 1, 2])).to.deep.equal([0.2, 0.4, 0.9]);
    });

    it("is monotone and keeps the weighted mean on arbitrary inputs", function () {
      let state = 11;
      const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
      for (let trial = 0; trial < 50; trial++) {
        const values = Array.from({ length: 30 }, () => next());
        const weights = Array.from({ length: 30 }, () => 1 + Math.floor(next() * 10));
        const fitted = isotonicFit(values, weights);
        expect(isMonotone(fitted)).to.equal(true);
        const mean = (xs: number[]) => xs.reduce((sum, x, i) => sum + x * weights[i], 0);
        expect(mean(fitted)).to.be.closeTo(mean(values), 1e-9);
      }
    });
  });

  describe("calibrate", function () {
    it("maps every bin monotonically, and a well-evidenced block near its hold rate", function () {
      const counts = emptyCounts(7);
      // Low scores held half the time, high scores 95 %, a middle bin 99 %, then 90 %: the fit pools the violation.
      const fill = (bin: number, windows: number, held: number) => {
        counts.windows[bin] = windows;
        counts.held[bin] = held;
      };
      fill(scoreBin(0), 2000, 1000);
      fill(scoreBin(3), 2000, 1980);
      fill(scoreBin(4), 2000, 1800);
      fill(scoreBin(6), 4000, 3800);
      const map = calibrate(counts);
      expect(map.probabilities).to.have.length(SCORE_BINS);
      expect(isMonotone(map.probabilities)).to.equal(true);
      // 3 and 4 pool to (1980 + 1800) / 4000 = 0.945, then 6 (0.95) stays above.
      expect(map.probabilities[scoreBin(3)]).to.be.closeTo(0.945, 0.01);
      expect(map.probabilities[scoreBin(6)]).to.be.closeTo(0.95, 0.01);
      // Beyond the evidence, a score gets what the highest evidence shows, never more.
      expect(map.probabilities[SCORE_BINS - 1]).to.equal(map.probabilities[scoreBin(6)]);
    });

    it("thin evidence gives the prior: too few effective windows, and a small block is shrunk towards it", function () {
      // 180-day windows count 2/180 each: 2,000 of them are 22 effective windows, under the minimum.
      const thin = emptyCounts(180);
      thin.windows[scoreBin(6)] = 2000;
      thin.held[scoreBin(6)] = 2000;
      expect(calibrate(thin).effectiveWindows).to.be.below(MIN_EFFECTIVE_WINDOWS);
      expect(calibrate(thin).probabilities.every((p) => p === PRIOR_PROBABILITY)).to.equal(true);
      // Enough in all, but the top block is small: 7 windows of 7 days that all held are 2 effective windows, shrunk
      // towards the pooled rate (≈ 0.90) with weight 10: (1 × 2 + 0.90 × 10) / 12 ≈ 0.917, not 1.
      const counts = emptyCounts(7);
      counts.windows[scoreBin(2)] = 1000;
      counts.held[scoreBin(2)] = 900;
      counts.windows[scoreBin(7)] = 7;
      counts.held[scoreBin(7)] = 7;
      const map = calibrate(counts).probabilities;
      const pooled = 907 / 1007;
      expect(map[scoreBin(7)]).to.be.closeTo((2 + pooled * PRIOR_WEIGHT) / (2 + PRIOR_WEIGHT), 1e-9);
      expect(map[scoreBin(2)]).to.be.closeTo(0.9, 0.001);
    });
  });

  describe("fitCalibration is out of pool and out of time", function () {
    const pools = [1, 2, 3, 4, 5, 6].map((seed) => ({
      pool: `p${seed}`,
      daily: lowsSeries(seed, 200, { swing: 0.03 + seed / 100 }),
    }));
    const asOf = day(150);
    const base = fitCalibration(pools, RULE, asOf, "p1");
    const rescaled = (daily: DailyDepth[], from: string, factor: number) =>
      daily.map((d) => (d.day > from ? { ...d, minDepthUsd: Math.round(d.minDepthUsd * factor) } : d));
    const bumpy = (daily: DailyDepth[], from: string) =>
      daily.map((d, i) => (d.day > from && i % 3 === 0 ? { ...d, minDepthUsd: Math.round(d.minDepthUsd * 0.3) } : d));

    it("has pooled evidence on the short horizons (so the checks below can see a change)", function () {
      expect(base.find((c) => c.horizonDays === 7)!.effectiveWindows).to.be.above(MIN_EFFECTIVE_WINDOWS);
    });

    it("never reads the claim's own pool", function () {
      const changed = pools.map((p) => (p.pool === "p1" ? { ...p, daily: bumpy(p.daily, day(0)) } : p));
      expect(fitCalibration(changed, RULE, asOf, "p1")).to.deep.equal(base);
    });

    it("never reads days after the claim's day, of any pool", function () {
      const changed = pools.map((p) => ({ ...p, daily: bumpy(rescaled(p.daily, asOf, 0.1), asOf) }));
      expect(fitCalibration(changed, RULE, asOf, "p1")).to.deep.equal(base);
    });

    it("does read other pools' windows closed by the claim's day", function () {
      const changed = pools.map((p) => (p.pool === "p2" ? { ...p, daily: bumpy(p.daily, day(60)) } : p));
      expect(fitCalibration(changed, RULE, asOf, "p1")).not.to.deep.equal(base);
    });

    it("v4 falls back to v2's conservative share without a calibration, and computeHorizon passes one to it", function () {
      const daily = pools[0].daily.filter((d) => d.day <= asOf);
      const depthNow = daily[daily.length - 1].minDepthUsd;
      const { candidates: _v4, ...alone } = computeHorizon({ daily, depthNow, model: MODEL_V4 });
      const { candidates: _v2, ...conservative } = computeHorizon({ daily, depthNow, model: MODEL_V2 });
      expect(alone.horizonDays).to.be.a("number");
      expect(alone).to.deep.equal(conservative);
      // A map on too few effective windows is the same as none: the prior decides.
      const thin: Calibration[] = [7, 14, 30, 60, 90, 180].map((h) => ({
        horizonDays: h,
        effectiveWindows: MIN_EFFECTIVE_WINDOWS - 1,
        probabilities: new Array(SCORE_BINS).fill(0.99),
      }));
      const { candidates: _thin, ...withThin } = computeHorizon({
        daily,
        depthNow,
        model: MODEL_V4,
        calibration: thin,
      });
      expect(withThin).to.deep.equal(conservative);
      const certain: Calibration[] = [7, 14, 30, 60, 90, 180].map((h) => ({
        horizonDays: h,
        effectiveWindows: 1000,
        probabilities: new Array(SCORE_BINS).fill(h <= 14 ? 0.9 : 0.5),
      }));
      expect(computeHorizon({ daily, depthNow, model: MODEL_V4, calibration: certain })).to.deep.include({
        horizonDays: 14,
        confidence: 90,
      });
    });
  });

  describe("process families (bench/families.ts)", function () {
    const end = Date.UTC(2026, 0, 1);
    for (const family of [...FAMILIES, ...LATER_FAMILIES]) {
      it(`${family}: the same series for the same seed, another for another seed or pool`, function () {
        const a = familyPool(family, 7, 3, 120, end);
        expect(familyPool(family, 7, 3, 120, end)).to.deep.equal(a);
        expect(a.daily).to.have.length(120);
        expect(a.daily.every((d) => Number.isFinite(d.minDepthUsd) && d.minDepthUsd >= 0)).to.equal(true);
        expect(a.daily.at(-1)!.day).to.equal("2025-12-31");
        expect(familyPool(family, 8, 3, 120, end).daily).not.to.deep.equal(a.daily);
        expect(familyPool(family, 7, 4, 120, end).daily).not.to.deep.equal(a.daily);
      });
    }

    it("flags the days the process is calm: stressed regimes and the 14 days after a jump or a cliff are not", function () {
      for (const family of [...FAMILIES, ...LATER_FAMILIES]) {
        const pools = Array.from({ length: 20 }, (_, i) => familyPool(family, 7, i, 450, end));
        for (const pool of pools) expect(pool.calm).to.have.length(pool.daily.length);
        const calmShare = pools.flatMap((p) => p.calm).filter(Boolean).length / (20 * 450);
        if (!["drift", "meanReversion", "heavyTails", "uptrend"].includes(family)) {
          expect(calmShare, family).to.be.above(0.5).and.below(1);
        } else {
          expect(calmShare, family).to.equal(1);
        }
      }
      // A cliff is a drop of at least half in a day: the day's low against the day before's, less the 2 % intraday dip.
      const cliffs = Array.from({ length: 20 }, (_, i) => familyPool("cliffs", 7, i, 450, end));
      for (const pool of cliffs) {
        pool.daily.forEach((d, i) => {
          if (i > 0 && d.minDepthUsd < 0.45 * pool.daily[i - 1].minDepthUsd) {
            expect(pool.calm[i], `${pool.pool} ${d.day}`).to.equal(false);
          }
        });
      }
    });

    it("each pool carries the parameters it was drawn with: the jumps family's drops come at its pools' own rates", function () {
      const pools = familyPools("jumps", 5, 300, 450, end);
      for (const pool of pools) expect(pool.params.rate).to.be.within(JUMPS.rate[0], JUMPS.rate[1]);
      const drops = pools.map((pool) => dropCounts(pool).at(-1)!);
      const expected = pools.reduce((sum, pool) => sum + pool.params.rate * 449, 0);
      const seen = drops.reduce((a, b) => a + b, 0);
      // Nearly every jump (a loss of 40 % or more) is a drop below 60 % of the day before; the noise hides a few.
      expect(seen / expected).to.be.within(0.85, 1.1);
      const byRate = pools
        .map((pool, i) => ({ rate: pool.params.rate, drops: drops[i] }))
        .sort((a, b) => a.rate - b.rate);
      const half = (part: typeof byRate) => part.reduce((sum, p) => sum + p.drops, 0);
      expect(half(byRate.slice(150))).to.be.above(1.5 * half(byRate.slice(0, 150)));
      expect(familyPool("drift", 5, 0, 30, end).params).to.have.keys("mu", "sigma");
    });

    it("the later families do what they say: a drain loses its share over its days, a whale's leaving drops the pool by its share, clusters keep their long-run volatility", function () {
      const drains = familyPools("drain", 5, 200, 450, end).filter((p) => p.params.drains === 1);
      expect(drains.length).to.be.within(120, 160);
      for (const pool of drains.slice(0, 40)) {
        const { start, length } = pool.params;
        const before = pool.daily[start - 1].minDepthUsd;
        const after = pool.daily[start + length - 1]?.minDepthUsd;
        // 40–90 % lost over the drain; the day-to-day noise (at most 2 % a day over at most 60 days) widens it.
        if (after !== undefined) expect(after / before, pool.pool).to.be.below(0.95);
      }
      const whales = familyPools("whale", 5, 100, 450, end);
      let leavings = 0;
      for (const pool of whales) {
        pool.daily.forEach((d, i) => {
          if (i > 0 && !pool.calm[i] && pool.calm[i - 1]) {
            leavings++;
            // The day it leaves, the pool falls by about the whale's share (30–70 %), the noise and dip aside.
            expect(d.minDepthUsd / pool.daily[i - 1].minDepthUsd, `${pool.pool} ${d.day}`).to.be.within(
              (1 - pool.params.share) * 0.85,
              (1 - pool.params.share) * 1.1,
            );
          }
        });
      }
      expect(leavings).to.be.above(100);
      const clusters = familyPools("clusters", 5, 100, 450, end);
      const ratios = clusters.map((pool) => {
        const changes = pool.daily.slice(1).map((d, i) => Math.log(d.minDepthUsd / pool.daily[i].minDepthUsd));
        const sd = Math.sqrt(changes.reduce((sum, c) => sum + c * c, 0) / changes.length);
        return sd / pool.params.longRun;
      });
      const median = [...ratios].sort((a, b) => a - b)[50];
      // The intraday dip (0–2 %, drawn per day) adds to the day-to-day change of the lows.
      expect(median).to.be.within(0.8, 1.5);
    });

    it("the jumps bound's forecasters: the law's prior before any day, less with each drop, the pool's rate in the long run", function () {
      expect(breakingShare(0.5)).to.be.closeTo(7 / 9, 1e-12);
      const s = breakingShare(0.5);
      const [lo, hi] = JUMPS.rate;
      for (const h of [7, 30, 60]) {
        const prior = ((1 - lo * s) ** (h + 1) - (1 - hi * s) ** (h + 1)) / (s * (h + 1) * (hi - lo));
        expect(lawForecast(0, 0, h, 0.5), `h ${h}`).to.be.closeTo(prior, 1e-4);
      }
      const byDrops = [0, 1, 2, 4].map((k) => lawForecast(k, 300, 30, 0.5));
      for (let i = 1; i < byDrops.length; i++) expect(byDrops[i]).to.be.below(byDrops[i - 1]);
      expect(lawForecast(500, 100_000, 30, 0.5)).to.be.closeTo(holdGivenRate(0.005, 30, 0.5), 0.002);
      expect(holdGivenRate(0.01, 30, 0.5)).to.be.closeTo((1 - 0.01 * s) ** 30, 1e-12);
    });

    it("the mixed set holds every family and is deterministic", function () {
      const mixed = mixedPools(3, 14, 60, end);
      expect(mixedPools(3, 14, 60, end)).to.deep.equal(mixed);
      for (const family of FAMILIES) expect(mixed.some((p) => p.pool.startsWith(`mixed:${family}:`))).to.equal(true);
    });
  });
});
