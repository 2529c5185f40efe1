import { expect } from "chai";
import { dexVolumeRows } from "../../../src/ingest/rows/dexVolumeRows";

const DAY = 86_400;
const day0 = Date.UTC(2026, 9, 1) / 1000;

describe("dexVolumeRows", () => {
  const overview = {
    totalDataChartBreakdown: [
      [day0, { "Uniswap V2": 10 }],
      [day0 + DAY, { "Uniswap V2": 20, Curve: 5 }],
      [day0 + 2 * DAY, { "Uniswap V2": 30 }],
    ] as [number, Record<string, number>][],
  };

  /** Read on day 4, so every day of `overview` is complete. */
  const later = day0 + 4 * DAY;

  it("makes one row per protocol per day of the last `days` days", () => {
    expect(dexVolumeRows({ chain: "Ethereum", overview, days: 2, observedAt: later }).rows).to.deep.equal([
      { chain: "Ethereum", protocol: "Uniswap V2", day: "2026-10-02", volumeUsd: 20, observedAt: later },
      { chain: "Ethereum", protocol: "Curve", day: "2026-10-02", volumeUsd: 5, observedAt: later },
      { chain: "Ethereum", protocol: "Uniswap V2", day: "2026-10-03", volumeUsd: 30, observedAt: later },
    ]);
  });

  it("keeps the whole chart when it is shorter than `days`", () => {
    expect(dexVolumeRows({ chain: "Base", overview, days: 30, observedAt: later }).rows).to.have.length(4);
    expect(
      dexVolumeRows({ chain: "Base", overview: { totalDataChartBreakdown: [] }, days: 30, observedAt: later }),
    ).to.deep.equal({ rows: [], dropped: 0 });
  });

  it("drops a negative or missing value and counts it, keeping the rest of the day", () => {
    // As in a recorded /overview/dexs/ethereum: negative adapter corrections and protocols with no value.
    const real = {
      totalDataChartBreakdown: [
        [day0, { "Uniswap V2": 10, "Bad Adapter": -6_212_564, Empty: null }],
        [day0 + DAY, { "Uniswap V2": 20 }],
      ] as [number, Record<string, number | null>][],
    };
    const result = dexVolumeRows({ chain: "Ethereum", overview: real, days: 30, observedAt: later });
    expect(result.dropped).to.equal(2);
    expect(result.rows.map((r) => [r.protocol, r.day, r.volumeUsd])).to.deep.equal([
      ["Uniswap V2", "2026-10-01", 10],
      ["Uniswap V2", "2026-10-02", 20],
    ]);
  });

  it("never stores today's unfinished day (the series' last point) as a complete day", () => {
    // Read at noon on 2026-10-03: the point for 2026-10-03 is the day so far.
    const noon = day0 + 2 * DAY + 12 * 3600;
    const rows = dexVolumeRows({ chain: "Ethereum", overview, days: 30, observedAt: noon }).rows;
    expect(rows.map((r) => r.day)).to.deep.equal(["2026-10-01", "2026-10-02", "2026-10-02"]);
  });
});
