import { utcDay } from "../../storage/poolDaily";
import type { DexVolume } from "../../storage/schema";
import type { DexOverview } from "../feeds/defillamaDexVolumes";

/**
 * One `dex_volumes` row per protocol per day of the last `days` days of a chain's DefiLlama dex overview.
 *
 * @example
 * dexVolumeRows({ chain: "Ethereum", overview, days: 30, observedAt: 1_790_000_000 });
 */
export function dexVolumeRows(parameters: {
  /** The chain's name as stored (`DEFILLAMA_CHAINS[chainId].name`). */
  chain: string;
  overview: Pick<DexOverview, "totalDataChartBreakdown">;
  /** Days kept, counted from the end of the chart. */
  days: number;
  /** When the feed was read, Unix seconds. */
  observedAt: number;
}): DexVolume[] {
  const { chain, overview, days, observedAt } = parameters;
  return overview.totalDataChartBreakdown.slice(-days).flatMap(([ts, breakdown]) =>
    Object.entries(breakdown).map(([protocol, volume]): DexVolume => ({
      chain,
      protocol,
      day: utcDay(ts),
      volume_usd: volume,
      observed_at: observedAt,
    })),
  );
}
