import { expect } from "chai";
import { bucketChance, misses, type SetRow } from "../../bench/targets";

/** A set that meets every target: failures under the promise, a bucket on its mean, Brier below the climatology. */
function row(change: Partial<SetRow> = {}): SetRow {
  return {
    family: "drift",
    model: "v7",
    poolDays: 1000,
    claims: 900,
    calmDays: 500,
    calmClaims: 480,
    scored: 800,
    promisedFailure: 0.05,
    observedFailure: 0.04,
    brier: 0.04,
    climatology: 0.045,
    difference90: { low: -0.006, high: -0.004 },
    buckets: [{ from: 0.8, n: 400, effective: 100, mean: 0.82, held: 0.83 }],
    horizons: [],
    ...change,
  };
}

describe("issue 28's targets and their reading (bench/targets.ts)", function () {
  it("finds no miss on a set that meets every target", function () {
    expect(misses(row())).to.deep.equal([]);
  });

  it("never excuses failing more than promised + 0.02, nor claiming on under 30 % of calm days", function () {
    expect(misses(row({ observedFailure: 0.0701 }))).to.deep.equal([
      { target: "fails more than promised", excused: null },
    ]);
    expect(misses(row({ observedFailure: 0.07 }))).to.deep.equal([]);
    expect(misses(row({ calmClaims: 149 }))).to.deep.equal([
      { target: "claims on under 30 % of calm pool-days", excused: null },
    ]);
  });

  it("excuses a bucket off by > 0.05 only where its hold rate's 90 % interval holds its mean confidence", function () {
    // Effective n 100, held 0.773 at 0.824: Wilson 90 % interval about [0.698, 0.834], which holds 0.824.
    const chance = row({ buckets: [{ from: 0.8, n: 3659, effective: 100, mean: 0.824, held: 0.773 }] });
    expect(misses(chance)).to.deep.equal([{ target: "a bucket off by > 0.05", excused: "inside its 90 % interval" }]);
    // Effective n 317, held 0.890 at 0.823: the interval is about [0.858, 0.916], which does not.
    const real = row({ buckets: [{ from: 0.8, n: 10973, effective: 317, mean: 0.823, held: 0.89 }] });
    expect(misses(real)).to.deep.equal([{ target: "a bucket off by > 0.05", excused: null }]);
    // A bucket under effective n 30 is not judged, however far off.
    expect(misses(row({ buckets: [{ from: 0.8, n: 50, effective: 29.9, mean: 0.82, held: 0.5 }] }))).to.deep.equal([]);
  });

  it("excuses a Brier score not below the climatology's where under 1 % failed, whatever the family", function () {
    const ceiling = row({
      family: "uptrend",
      observedFailure: 0.004,
      brier: 0.0036,
      climatology: 0.0035,
      difference90: { low: 0.0001, high: 0.0001 },
    });
    expect(misses(ceiling)).to.deep.equal([{ target: "Brier not below climatology", excused: "under 1 % failed" }]);
    expect(misses(row({ ...ceiling, observedFailure: 0.01 }))[0].excused).to.equal(null);
    // Nothing failed at all: the target does not apply.
    expect(misses(row({ ...ceiling, observedFailure: 0 }))).to.deep.equal([]);
  });

  it("excuses a level Brier score only on a family where the law's forecaster is level too (jumps)", function () {
    const level = { brier: 0.1032, climatology: 0.103, difference90: { low: -0.0002, high: 0.0005 } };
    expect(misses(row({ ...level, family: "jumps" }))).to.deep.equal([
      { target: "Brier not below climatology", excused: "level; the law's forecaster is no better" },
    ]);
    expect(misses(row({ ...level, family: "regimes" }))[0].excused).to.equal(null);
    // Worse by more than chance is never excused, jumps or not.
    expect(misses(row({ ...level, family: "jumps", difference90: { low: 0.0001, high: 0.0005 } }))[0].excused).to.equal(
      null,
    );
  });

  it("counts buckets off by > 0.05 against what chance gives a calibrated forecaster", function () {
    const rows = [
      row({ buckets: [{ from: 0.8, n: 3659, effective: 100, mean: 0.824, held: 0.773 }] }),
      row({ buckets: [{ from: 0.95, n: 9000, effective: 1e6, mean: 0.97, held: 0.97 }] }),
    ];
    const { buckets, off, expected } = bucketChance(rows);
    expect([buckets, off]).to.deep.equal([2, 1]);
    // Effective n 100 at 0.824: sd 0.0381, so P(|gap| > 0.05) = 2Φ(−1.31) ≈ 0.19; at effective n 1e6, about 0.
    expect(expected).to.be.closeTo(0.19, 0.01);
  });
});
