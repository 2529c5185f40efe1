import { utcDay } from "../../storage/poolDaily";
import type { DexVolumeRecord } from "../../storage/dexVolumes";

/** The rows of one chain's DEX overview and how many values were left out as negative or missing. */
export interface DexVolumeRowsResult {
  rows: DexVolumeRecord[];
  /** Values that were negative, not finite or null (the feed's schema turns them to null): dropped, one by one. */
  dropped: number;
}

/**
 * One `dex_volumes` row per protocol per COMPLETED UTC day of the last `days` days of a chain's DefiLlama dex
 * overview. The series' last point is today's unfinished day (a partial total, often the previous day's value
 * repeated): a day at or after the UTC day of `observedAt` is never stored. A missing or negative value is dropped
 * and counted; the other values of its day are kept.
 *
 * @example
 * dexVolumeRows({ chain: "Ethereum", overview, days: 30, observedAt: 1_790_000_000 }); // { rows: […], dropped: 0 }
 */
export function dexVolumeRows(parameters: {
  /** The chain's name as stored (`DEFILLAMA_CHAINS[chainId].name`). */
  chain: string;
  overview: { totalDataChartBreakdown: readonly (readonly [number, Readonly<Record<string, number | null>>])[] };
  /** Completed days kept, counted from the end of the chart. */
  days: number;
  /** When the feed was read, Unix seconds: its UTC day is unfinished. */
  observedAt: number;
}): DexVolumeRowsResult {
  const { chain, overview, days, observedAt } = parameters;
  const today = utcDay(observedAt);
  const complete = overview.totalDataChartBreakdown.filter(([ts]) => utcDay(ts) < today).slice(-days);
  let dropped = 0;
  const rows = complete.flatMap(([ts, breakdown]) =>
    Object.entries(breakdown).flatMap(([protocol, volume]): DexVolumeRecord[] => {
      if (volume === null || !Number.isFinite(volume) || volume < 0) {
        dropped++;
        return [];
      }
      return [{ chain, protocol, day: utcDay(ts), volumeUsd: volume, observedAt }];
    }),
  );
  return { rows, dropped };
}
