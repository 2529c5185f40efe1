import { expect } from "chai";
import { dailyLowestPoints } from "../../../src/ingest/rows/dailyLowest";

const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);

describe("dailyLowestPoints", () => {
  it("keeps each completed day's lowest point, in the chart's day order", () => {
    const chart = [
      { timestamp: "2026-10-01T00:00:00.000Z", tvlUsd: 100 },
      { timestamp: "2026-10-01T12:00:00.000Z", tvlUsd: 80 },
      { timestamp: "2026-10-01T18:00:00.000Z", tvlUsd: 90 },
      { timestamp: "2026-10-02T06:00:00.000Z", tvlUsd: 70 },
    ];
    expect(dailyLowestPoints({ chart, today: "2026-10-05" })).to.deep.equal([
      { day: "2026-10-01", depthUsd: 80, observedAt: at("2026-10-01T12:00:00.000Z") },
      { day: "2026-10-02", depthUsd: 70, observedAt: at("2026-10-02T06:00:00.000Z") },
    ]);
  });

  it("leaves out today and later days, and keeps the earlier point of a tie", () => {
    const chart = [
      { timestamp: "2026-10-04T01:00:00.000Z", tvlUsd: 50 },
      { timestamp: "2026-10-04T02:00:00.000Z", tvlUsd: 50 },
      { timestamp: "2026-10-05T00:00:00.000Z", tvlUsd: 1 },
      { timestamp: "2026-10-06T00:00:00.000Z", tvlUsd: 1 },
    ];
    expect(dailyLowestPoints({ chart, today: "2026-10-05" })).to.deep.equal([
      { day: "2026-10-04", depthUsd: 50, observedAt: at("2026-10-04T01:00:00.000Z") },
    ]);
    expect(dailyLowestPoints({ chart: [], today: "2026-10-05" })).to.deep.equal([]);
  });
});
