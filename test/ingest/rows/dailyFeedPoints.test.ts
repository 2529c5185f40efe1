import { expect } from "chai";
import { dailyFeedPoints } from "../../../src/ingest/rows/dailyFeedPoints";
import { fixture } from "../../helpers/ingest/routeServer";
import type { DefillamaChartPoint } from "../../../src/ingest/feeds/defillamaYields";

const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);

describe("dailyFeedPoints", () => {
  it("keeps each completed day's LAST snapshot (end of day), never its lowest, in the chart's day order", () => {
    const chart = [
      { timestamp: "2026-10-01T00:00:00.000Z", tvlUsd: 100 },
      { timestamp: "2026-10-01T12:00:00.000Z", tvlUsd: 80 },
      { timestamp: "2026-10-01T23:01:00.000Z", tvlUsd: 90 },
      { timestamp: "2026-10-02T06:00:00.000Z", tvlUsd: 70 },
    ];
    expect(dailyFeedPoints({ chart, today: "2026-10-05" })).to.deep.equal([
      { day: "2026-10-01", depthUsd: 90, observedAt: at("2026-10-01T23:01:00.000Z") },
      { day: "2026-10-02", depthUsd: 70, observedAt: at("2026-10-02T06:00:00.000Z") },
    ]);
  });

  it("takes the real /chart shape, one point a day at about 23:01 UTC, as that day's end-of-day value", () => {
    const chart = (fixture("defillama-chart.json") as { data: DefillamaChartPoint[] }).data;
    expect(dailyFeedPoints({ chart, today: "2026-11-21" })).to.deep.equal([
      { day: "2026-11-18", depthUsd: 40012345, observedAt: at("2026-11-18T23:01:12.000Z") },
      { day: "2026-11-19", depthUsd: 39877120, observedAt: at("2026-11-19T23:01:09.512Z") },
      { day: "2026-11-20", depthUsd: 41235877, observedAt: at("2026-11-20T23:01:30.004Z") },
    ]);
  });

  it("leaves out today and later days, and keeps the later point of two at the same time", () => {
    const chart = [
      { timestamp: "2026-10-04T01:00:00.000Z", tvlUsd: 50 },
      { timestamp: "2026-10-04T02:00:00.000Z", tvlUsd: 60 },
      { timestamp: "2026-10-04T02:00:00.000Z", tvlUsd: 61 },
      { timestamp: "2026-10-05T00:00:00.000Z", tvlUsd: 1 },
      { timestamp: "2026-10-06T00:00:00.000Z", tvlUsd: 1 },
    ];
    expect(dailyFeedPoints({ chart, today: "2026-10-05" })).to.deep.equal([
      { day: "2026-10-04", depthUsd: 61, observedAt: at("2026-10-04T02:00:00.000Z") },
    ]);
    expect(dailyFeedPoints({ chart: [], today: "2026-10-05" })).to.deep.equal([]);
  });
});
