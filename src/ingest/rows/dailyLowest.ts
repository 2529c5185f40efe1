import { utcDay } from "../../storage/poolDaily";
import type { DefillamaChartPoint } from "../feeds/defillamaYields";

/** One backfilled day: its lowest depth and when that was observed. */
export interface DailyLowestPoint {
  /** UTC day `YYYY-MM-DD`. */
  day: string;
  depthUsd: number;
  /** Unix seconds. */
  observedAt: number;
}

/**
 * Turns DefiLlama `/chart` points into one point per COMPLETED UTC day (before `today`): that day's lowest `tvlUsd`.
 * DefiLlama's tvlUsd is the same measure as the on-chain depth (AMM reserves value; lending supplied − borrowed).
 * On a tie the earlier point is kept. Days come out in the order they first appear in the chart.
 *
 * @example
 * dailyLowestPoints({ chart, today: "2026-10-05" }); // [{ day: "2026-10-01", depthUsd: 1.9e6, observedAt: … }, …]
 */
export function dailyLowestPoints(parameters: {
  chart: readonly DefillamaChartPoint[];
  /** The current UTC day: its points (and any later) are left out. */
  today: string;
}): DailyLowestPoint[] {
  const lowest = new Map<string, DailyLowestPoint>();
  for (const point of parameters.chart) {
    const observedAt = Math.floor(Date.parse(point.timestamp) / 1000);
    const day = utcDay(observedAt);
    if (day >= parameters.today) continue;
    const previous = lowest.get(day);
    if (!previous || point.tvlUsd < previous.depthUsd) lowest.set(day, { day, depthUsd: point.tvlUsd, observedAt });
  }
  return [...lowest.values()];
}
