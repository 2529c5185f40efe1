import { utcDay } from "../../storage/poolDaily";
import type { DefillamaChartPoint } from "../feeds/defillamaYields";

/** One backfilled day (`feed-daily`): the feed's end-of-day value and when it was taken. */
export interface DailyFeedPoint {
  /** UTC day `YYYY-MM-DD`. */
  day: string;
  /** The day's last `tvlUsd` snapshot: an end-of-day value, NOT the day's low. */
  depthUsd: number;
  /** When the snapshot was taken, Unix seconds. */
  observedAt: number;
}

/**
 * Turns DefiLlama `/chart` points into one point per COMPLETED UTC day (before `today`): that day's LAST snapshot.
 * The real `/chart` already gives one point a day (DefiLlama groups by date and keeps the latest, about 23:01 UTC), so
 * its value is an end-of-day snapshot, not the day's lowest depth; it is stored as such, marked `feed-daily` (a
 * `pool_daily` row with a null `min_block`), never as an observed low. DefiLlama's tvlUsd is the same measure as the
 * on-chain depth (AMM reserves value; lending supplied − borrowed). Two different points at one time never reach
 * here (the feed's reader refuses both); of a day's points the latest in time is kept. Days come out in the order they first appear in the chart.
 *
 * @example
 * dailyFeedPoints({ chart, today: "2026-10-05" }); // [{ day: "2026-10-01", depthUsd: 1.9e6, observedAt: … }, …]
 */
export function dailyFeedPoints(parameters: {
  chart: readonly DefillamaChartPoint[];
  /** The current UTC day: its points (and any later) are left out. */
  today: string;
}): DailyFeedPoint[] {
  const last = new Map<string, DailyFeedPoint>();
  for (const point of parameters.chart) {
    const observedAt = Math.floor(Date.parse(point.timestamp) / 1000);
    const day = utcDay(observedAt);
    if (day >= parameters.today) continue;
    const previous = last.get(day);
    if (!previous || observedAt >= previous.observedAt) last.set(day, { day, depthUsd: point.tvlUsd, observedAt });
  }
  return [...last.values()];
}
