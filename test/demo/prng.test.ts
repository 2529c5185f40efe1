import { expect } from "chai";
import { createPrng } from "../../src/demo/prng";

describe("createPrng", function () {
  it("repeats the same sequence for the same seed and differs for another", function () {
    const a = createPrng(42);
    const b = createPrng(42);
    const c = createPrng(43);
    const seqA = Array.from({ length: 20 }, () => a.next());
    expect(Array.from({ length: 20 }, () => b.next())).to.deep.equal(seqA);
    expect(Array.from({ length: 20 }, () => c.next())).to.not.deep.equal(seqA);
  });

  it("stays within the bounds asked for", function () {
    const rng = createPrng(1);
    for (let i = 0; i < 2000; i++) {
      const x = rng.next();
      expect(x).to.be.at.least(0).and.below(1);
      const y = rng.between(0.001, 0.012);
      expect(y).to.be.at.least(0.001).and.below(0.012);
      const n = rng.int(2, 4);
      expect([2, 3, 4]).to.include(n);
      expect(["a", "b"]).to.include(rng.pick(["a", "b"]));
    }
  });

  it("hits every integer of a range and honours chance(0) and chance(1)", function () {
    const rng = createPrng(7);
    const seen = new Set(Array.from({ length: 200 }, () => rng.int(2, 4)));
    expect([...seen].sort()).to.deep.equal([2, 3, 4]);
    expect(Array.from({ length: 100 }, () => rng.chance(0)).some(Boolean)).to.equal(false);
    expect(Array.from({ length: 100 }, () => rng.chance(1)).every(Boolean)).to.equal(true);
  });
});
