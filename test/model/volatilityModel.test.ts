import { expect } from "chai";
import {
  calibrate,
  calibratedProbability,
  emptyCounts,
  logisticConfidence,
  logisticMap,
  MIN_EFFECTIVE_WINDOWS,
  PRIOR_PROBABILITY,
  SCORE_BINS,
  scoreBin,
  scoreBinCenter,
  VOLATILITY_CLASSES,
  VOLATILITY_MIN,
  volatilityClass,
  volatilityClassCenter,
  type Calibration,
} from "../../src/model/calibration";
import { evaluateModel, walkForward } from "../../src/model/evaluateModel";
import {
  ISSUING_MODEL,
  MODEL_V2,
  MODEL_V6,
  MODEL_V7,
  computeHorizon,
  marginScore,
  type WindowStats,
} from "../../src/model/horizon";
import { fitLogistic, logisticProbability } from "../../src/model/logistic";
import { fitCalibration, PooledCalibrations } from "../../src/model/pooledCalibration";
import { pooledPriorProbability } from "../../src/model/pooledPrior";
import { recentVolatility, VOLATILITY_DECAY } from "../../src/model/volatility";
import { lowsSeries, seriesDay as day } from "../helpers/model/series";

const V6_RULE = { floor: 0.5, target: 0.8, model: MODEL_V6 };

const stats = (h: number, windows: number, held: number, volatility = 0.02): WindowStats => ({
  horizonDays: h,
  windows,
  held,
  sumLogRatio: windows * Math.log(0.9),
  sumLogRatioSquared: windows * Math.log(0.9) ** 2,
  volatility,
});

/** A map too thin to fit, with `pooledWindows` effective pooled windows at `rate`. */
const thinMap = (h: number, pooledWindows: number, rate: number): Calibration => ({
  horizonDays: h,
  effectiveWindows: MIN_EFFECTIVE_WINDOWS - 1,
  probabilities: new Array<number>(SCORE_BINS).fill(0.5),
  pooledWindows,
  pooledHeld: pooledWindows * rate,
  logistic: [0, 0, 0],
});

describe("model v6: the margin score and the recent volatility, by a pooled logistic map", function () {
  describe("recentVolatility", function () {
    it("is the exponentially weighted root mean square of the daily log changes, NaN before the first", function () {
      const low = [100, 110, 99, 99];
      const vol = recentVolatility(low);
      expect(vol[0]).to.be.NaN;
      const c1 = Math.log(110 / 100) ** 2;
      const c2 = (1 - VOLATILITY_DECAY) * c1 + VOLATILITY_DECAY * Math.log(99 / 110) ** 2;
      const c3 = (1 - VOLATILITY_DECAY) * c2;
      expect(vol[1]).to.equal(Math.sqrt(c1));
      expect(vol[2]).to.equal(Math.sqrt(c2));
      expect(vol[3]).to.equal(Math.sqrt(c3));
    });

    it("skips a change across a missing day or a zero low, and carries the last value", function () {
      const vol = recentVolatility([100, 120, Number.NaN, 50, 0, 60, 66]);
      const c1 = Math.log(1.2) ** 2;
      expect([vol[2], vol[3], vol[4], vol[5]]).to.deep.equal([
        Math.sqrt(c1),
        Math.sqrt(c1),
        Math.sqrt(c1),
        Math.sqrt(c1),
      ]);
      expect(vol[6]).to.equal(Math.sqrt((1 - VOLATILITY_DECAY) * c1 + VOLATILITY_DECAY * Math.log(1.1) ** 2));
    });

    it("reads no day after its own", function () {
      const low = Array.from({ length: 60 }, (_, i) => 1000 * (1 + 0.1 * Math.sin(i)));
      const changed = low.map((v, i) => (i > 30 ? v * (i % 2 === 0 ? 0.2 : 3) : v));
      expect([...recentVolatility(changed)].slice(0, 31)).to.deep.equal([...recentVolatility(low)].slice(0, 31));
    });
  });

  describe("volatility classes", function () {
    it("are half-octaves of the volatility from 0.4 % a day, the last one open, NaN in the last", function () {
      expect(volatilityClass(0)).to.equal(0);
      expect(volatilityClass(VOLATILITY_MIN * 0.99)).to.equal(0);
      expect(volatilityClass(VOLATILITY_MIN)).to.equal(1);
      expect(volatilityClass(VOLATILITY_MIN * 2.01)).to.equal(3);
      expect(volatilityClass(5)).to.equal(VOLATILITY_CLASSES - 1);
      expect(volatilityClass(Number.NaN)).to.equal(VOLATILITY_CLASSES - 1);
      expect(Math.exp(volatilityClassCenter(3))).to.be.closeTo(VOLATILITY_MIN * 2 ** 1.25, 1e-12);
    });
  });

  describe("fitLogistic", function () {
    it("recovers the coefficients of grouped data drawn exactly from a logistic curve", function () {
      const truth = [1.5, 0.8, -1.2];
      const rows = [];
      for (let a = -2; a <= 4; a += 0.5) {
        for (let b = -5; b <= -2; b += 0.5) {
          rows.push({ x: [a, b], weight: 1000, rate: logisticProbability(truth, [a, b]) });
        }
      }
      const fitted = fitLogistic(rows, 2);
      // The pseudo-row at one half and the ridge pull the fit a little, by under 0.01 on 91,000 trials.
      fitted.forEach((value, i) => expect(value, `coefficient ${i}`).to.be.closeTo(truth[i], 0.01));
    });

    it("stays finite where every window held, and below certainty", function () {
      const fitted = fitLogistic(
        [
          { x: [1], weight: 50, rate: 1 },
          { x: [3], weight: 50, rate: 1 },
        ],
        1,
      );
      fitted.forEach((value) => expect(Number.isFinite(value)).to.equal(true));
      const p = logisticProbability(fitted, [2]);
      expect(p).to.be.above(0.95).and.below(1);
    });

    it("is one half with no row", function () {
      expect(logisticProbability(fitLogistic([], 2), [3, -4])).to.equal(0.5);
    });
  });

  describe("the logistic map of a horizon", function () {
    it("reads the volatility: windows that held in calm cells and broke in volatile ones give a falling slope", function () {
      const counts = emptyCounts(14);
      const bin = scoreBin(3);
      for (let cls = 2; cls < 10; cls++) {
        const cell = bin * VOLATILITY_CLASSES + cls;
        counts.cellWindows[cell] = 200;
        counts.cellHeld[cell] = Math.round(200 * (1 - cls / 12));
        counts.windows[bin] += 200;
        counts.held[bin] += counts.cellHeld[cell];
      }
      const map = calibrate(counts, { logistic: true });
      expect(map.logistic).to.deep.equal(logisticMap(counts));
      const [, , volatilitySlope] = map.logistic!;
      expect(volatilitySlope).to.be.below(0);
      const calm = logisticConfidence(map, 3, Math.exp(volatilityClassCenter(2)));
      const wild = logisticConfidence(map, 3, Math.exp(volatilityClassCenter(9)));
      expect(calm).to.be.closeTo(1 - 2 / 12, 0.03);
      expect(wild).to.be.closeTo(1 - 9 / 12, 0.03);
      // Beyond the cells' span it reads the last cell; an unknown volatility reads as the last class.
      expect(logisticConfidence(map, 3, 1e-9)).to.equal(logisticConfidence(map, 3, Math.exp(volatilityClassCenter(0))));
      expect(logisticConfidence(map, 3, Number.NaN)).to.equal(
        logisticConfidence(map, 3, Math.exp(volatilityClassCenter(VOLATILITY_CLASSES - 1))),
      );
      expect(logisticConfidence(map, 99, 0.02)).to.equal(logisticConfidence(map, scoreBinCenter(SCORE_BINS - 1), 0.02));
    });

    it("is left out unless asked for (v4 and v5 do not pay for it)", function () {
      expect(calibrate(emptyCounts(7))).not.to.have.property("logistic");
    });
  });

  describe("which rule a candidate reads", function () {
    for (const model of [MODEL_V6, MODEL_V7]) {
      const name = model.id.split("/").at(-1);
      it(`${name}: is v2 exactly for a lone pool (no other pool's window of any horizon)`, function () {
        for (const h of [7, 30, 90]) {
          for (const [windows, held] of [
            [20, 20],
            [100, 70],
          ]) {
            const s = stats(h, windows, held);
            const lone = [thinMap(7, 0, 0), thinMap(30, 0, 0), thinMap(90, 0, 0)];
            expect(model.confidenceHundredths(s, 0.5, lone)).to.equal(MODEL_V2.confidenceHundredths(s, 0.5));
            expect(model.meetsTarget(s, 0.5, 800_000, lone)).to.equal(MODEL_V2.meetsTarget(s, 0.5, 800_000));
            expect(model.confidenceHundredths(s, 0.5)).to.equal(MODEL_V2.confidenceHundredths(s, 0.5));
          }
        }
      });

      it(`${name}: reads the pooled prior on the shortest candidate where its map is thin, and claims nothing longer`, function () {
        const maps = [thinMap(7, 20, 0.95), thinMap(14, 12, 0.9), thinMap(30, 3, 0.9)];
        const short = stats(7, 40, 40);
        expect(model.confidenceHundredths(short, 0.5, maps)).to.equal(
          Math.floor(pooledPriorProbability(short, maps[0]) * 100 + 1e-9),
        );
        expect(model.meetsTarget(short, 0.5, 800_000, maps)).to.equal(true);
        for (const h of [14, 30]) {
          expect(model.confidenceHundredths(stats(h, 40, 40), 0.5, maps)).to.equal(PRIOR_PROBABILITY * 100);
          expect(model.meetsTarget(stats(h, 40, 40), 0.5, 800_000, maps)).to.equal(false);
        }
      });
    }

    it("reads the mean of the margin's map and the logistic map where the horizon's map is fitted", function () {
      const probabilities = Array.from({ length: SCORE_BINS }, (_, bin) => Math.min(0.99, 0.5 + bin / 60));
      const fitted: Calibration = {
        ...thinMap(14, 500, 0.9),
        effectiveWindows: 400,
        probabilities,
        logistic: [-1, 0.4, -0.6],
      };
      const maps = [thinMap(7, 500, 0.9), fitted];
      const s = stats(14, 60, 58, 0.03);
      const z = marginScore(s, 0.5);
      const p = (logisticConfidence(fitted, z, 0.03) + calibratedProbability(fitted, z)) / 2;
      expect(MODEL_V6.confidenceHundredths(s, 0.5, maps)).to.equal(Math.floor(p * 100 + 1e-9));
      expect(MODEL_V6.meetsTarget(s, 0.5, Math.floor(p * 1e6), maps)).to.equal(true);
      expect(MODEL_V6.meetsTarget(s, 0.5, Math.ceil(p * 1e6) + 1, maps)).to.equal(false);
      // Calmer reads higher (the slope on ln volatility is negative).
      expect(MODEL_V6.confidenceHundredths({ ...s, volatility: 0.005 }, 0.5, maps)).to.be.above(Math.floor(p * 100));
    });

    it("v7 reads the logistic map alone where the horizon's map is fitted, whatever v4's map says", function () {
      const fitted: Calibration = {
        ...thinMap(14, 500, 0.9),
        effectiveWindows: 400,
        probabilities: Array.from({ length: SCORE_BINS }, () => 0.6),
        logistic: [-1, 0.4, -0.6],
      };
      const maps = [thinMap(7, 500, 0.9), fitted];
      const s = stats(14, 60, 58, 0.03);
      const p = logisticConfidence(fitted, marginScore(s, 0.5), 0.03);
      expect(p).to.be.above(0.8);
      expect(MODEL_V7.confidenceHundredths(s, 0.5, maps)).to.equal(Math.floor(p * 100 + 1e-9));
      expect(MODEL_V7.meetsTarget(s, 0.5, 800_000, maps)).to.equal(true);
      // v6 averages in v4's map (0.6 here) and reads lower.
      expect(MODEL_V6.confidenceHundredths(s, 0.5, maps)).to.equal(Math.floor(((p + 0.6) / 2) * 100 + 1e-9));
      const changed = { ...fitted, probabilities: Array.from({ length: SCORE_BINS }, () => 0.99) };
      expect(MODEL_V7.confidenceHundredths(s, 0.5, [maps[0], changed])).to.equal(Math.floor(p * 100 + 1e-9));
    });

    it("refuses maps fitted without the logistic fit (a programming error, never a silent 0.5)", function () {
      const { logistic: _dropped, ...bare } = { ...thinMap(14, 500, 0.9), effectiveWindows: 400 };
      expect(() => MODEL_V6.confidenceHundredths(stats(14, 60, 58), 0.5, [bare])).to.throw(/logistic map/);
      expect(() => MODEL_V7.confidenceHundredths(stats(14, 60, 58), 0.5, [bare])).to.throw(/logistic map/);
    });
  });

  describe("on pools' histories", function () {
    const pools = [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => ({
      pool: `p${seed}`,
      daily: lowsSeries(seed, 200, { swing: 0.03 + seed / 100 }),
    }));

    it("fits its map out of pool and out of time", function () {
      const asOf = day(150);
      const base = fitCalibration(pools, V6_RULE, asOf, "p1");
      expect(base[0].logistic).to.have.length(3);
      const own = pools.map((p) =>
        p.pool === "p1" ? { ...p, daily: p.daily.map((d) => ({ ...d, minDepthUsd: 1 })) } : p,
      );
      expect(fitCalibration(own, V6_RULE, asOf, "p1")).to.deep.equal(base);
      const later = pools.map((p) => ({
        ...p,
        daily: p.daily.map((d) => (d.day > asOf ? { ...d, minDepthUsd: Math.round(d.minDepthUsd * 0.1) } : d)),
      }));
      expect(fitCalibration(later, V6_RULE, asOf, "p1")).to.deep.equal(base);
    });

    it("is what evaluateModel and fitCalibration use when the rule names no version (the issuing one)", function () {
      const asOf = day(150);
      const { model: _named, ...unnamed } = V6_RULE;
      const issuing = { ...unnamed, model: ISSUING_MODEL };
      expect(fitCalibration(pools, unnamed, asOf, "p1")).to.deep.equal(fitCalibration(pools, issuing, asOf, "p1"));
      expect(evaluateModel(pools, unnamed, day(199))).to.deep.equal(evaluateModel(pools, issuing, day(199)));
    });

    it("gives each day's claim the walk forward replays as computeHorizon does with fitCalibration", function () {
      const lastDay = day(199);
      const pooled = new PooledCalibrations(pools, V6_RULE, lastDay);
      const claims = walkForward(pools[2], V6_RULE, lastDay, pooled.forPool("p3"));
      expect(claims.length).to.be.above(100);
      for (const claim of claims.filter((_, i) => i % 9 === 0)) {
        const daily = pools[2].daily.filter((d) => d.day <= claim.asOf);
        const result = computeHorizon({
          daily,
          depthNow: daily[daily.length - 1].minDepthUsd,
          model: MODEL_V6,
          calibration: fitCalibration(pools, V6_RULE, claim.asOf, "p3"),
        });
        expect({ horizon: result.horizonDays, confidence: result.confidence }, claim.asOf).to.deep.equal({
          horizon: claim.horizon,
          confidence: Math.round(claim.confidence * 100),
        });
      }
    });
  });
});
