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

  it("makes one row per protocol per day of the last `days` days", () => {
    expect(dexVolumeRows({ chain: "Ethereum", overview, days: 2, observedAt: 7 })).to.deep.equal([
      { chain: "Ethereum", protocol: "Uniswap V2", day: "2026-10-02", volume_usd: 20, observed_at: 7 },
      { chain: "Ethereum", protocol: "Curve", day: "2026-10-02", volume_usd: 5, observed_at: 7 },
      { chain: "Ethereum", protocol: "Uniswap V2", day: "2026-10-03", volume_usd: 30, observed_at: 7 },
    ]);
  });

  it("keeps the whole chart when it is shorter than `days`", () => {
    expect(dexVolumeRows({ chain: "Base", overview, days: 30, observedAt: 7 })).to.have.length(4);
    expect(
      dexVolumeRows({ chain: "Base", overview: { totalDataChartBreakdown: [] }, days: 30, observedAt: 7 }),
    ).to.deep.equal([]);
  });
});
