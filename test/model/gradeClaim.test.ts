import { expect } from "chai";
import { gradeClaim, settleDay } from "../../src/model/gradeClaim";

const lows = (entries: Record<string, number | null>) => (day: string) => entries[day] ?? null;
const CLAIM = { issuedDay: "2026-03-01", horizon: 3, floorUsd: 50 };

describe("gradeClaim (the accuracy record's rule)", () => {
  it("puts the settle day horizon days after the issuance day, across a month and a year end", () => {
    expect(settleDay("2026-03-01", 3)).to.equal("2026-03-04");
    expect(settleDay("2026-02-27", 2)).to.equal("2026-03-01");
    expect(settleDay("2026-12-31", 1)).to.equal("2027-01-01");
  });

  it("stays pending until the settle day is final, whatever the window already shows", () => {
    const failing = lows({ "2026-03-02": 10, "2026-03-03": 60, "2026-03-04": 60 });
    expect(gradeClaim(CLAIM, failing, "2026-03-03").outcome).to.equal("pending");
    expect(gradeClaim(CLAIM, failing, "2026-03-04").outcome).to.equal("failed");
  });

  it("holds when every window day is observed at or above the floor, naming the lowest day", () => {
    const grade = gradeClaim(CLAIM, lows({ "2026-03-02": 70, "2026-03-03": 50, "2026-03-04": 55 }), "2026-03-10");
    expect(grade).to.deep.equal({ outcome: "held", lowestDepthUsd: 50, lowestDepthDate: "2026-03-03" });
  });

  it("reads only the days after the issuance day up to the settle day", () => {
    const grade = gradeClaim(
      CLAIM,
      lows({ "2026-03-01": 1, "2026-03-02": 60, "2026-03-03": 60, "2026-03-04": 60, "2026-03-05": 1 }),
      "2026-03-10",
    );
    expect(grade.outcome).to.equal("held");
  });

  it("fails on the first observed low below the floor, even when a later day is missing", () => {
    const grade = gradeClaim(CLAIM, lows({ "2026-03-02": 60, "2026-03-03": 40, "2026-03-04": 30 }), "2026-03-04");
    expect(grade).to.deep.equal({ outcome: "failed", lowestDepthUsd: 40, lowestDepthDate: "2026-03-03" });
    const gap = gradeClaim(CLAIM, lows({ "2026-03-02": null, "2026-03-03": 49.99 }), "2026-03-04");
    expect(gap).to.deep.equal({ outcome: "failed", lowestDepthUsd: 49.99, lowestDepthDate: "2026-03-03" });
  });

  it("is void, never held, when a window day has no observed low", () => {
    const grade = gradeClaim(CLAIM, lows({ "2026-03-02": 60, "2026-03-04": 60 }), "2026-03-04");
    expect(grade).to.deep.equal({ outcome: "void", lowestDepthUsd: null, lowestDepthDate: null });
    expect(gradeClaim(CLAIM, lows({}), "2026-03-04").outcome).to.equal("void");
    expect(
      gradeClaim(CLAIM, lows({ "2026-03-02": 60, "2026-03-03": NaN, "2026-03-04": 60 }), "2026-03-04").outcome,
    ).to.equal("void");
  });
});
