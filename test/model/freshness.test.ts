import { expect } from "chai";
import { isStale, partitionByFreshness } from "../../src/model/freshness";

describe("isStale", () => {
  it("is fresh up to and including the window, stale after it", () => {
    expect(isStale({ observedAt: 1000, now: 1000, windowS: 3600 })).to.equal(false);
    expect(isStale({ observedAt: 1000, now: 4600, windowS: 3600 })).to.equal(false);
    expect(isStale({ observedAt: 1000, now: 4601, windowS: 3600 })).to.equal(true);
  });
  it("treats a value never observed as stale", () => {
    expect(isStale({ observedAt: null, now: 1, windowS: 3600 })).to.equal(true);
    expect(isStale({ observedAt: undefined, now: 1, windowS: 3600 })).to.equal(true);
    expect(isStale({ observedAt: Number.NaN, now: 1, windowS: 3600 })).to.equal(true);
  });
  it("partitions items into fresh and stale, keeping order", () => {
    const items = [
      { id: "a", t: 100 },
      { id: "b", t: null },
      { id: "c", t: 50 },
      { id: "d", t: 10 },
    ];
    const { fresh, stale } = partitionByFreshness({ items, observedAt: (i) => i.t, now: 110, windowS: 60 });
    expect(fresh.map((i) => i.id)).to.deep.equal(["a", "c"]);
    expect(stale.map((i) => i.id)).to.deep.equal(["b", "d"]);
  });
});
