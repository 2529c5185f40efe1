import type { FeedRequestOptions } from "./feeds/fetchJson";
import type { ReadSourcesParameters } from "./readParameters";
import { readChartStep } from "./steps/defillamaChart";
import { readDexVolumesStep } from "./steps/defillamaDexVolumes";
import { readYieldsStep } from "./steps/defillamaYields";
import { readMerklStep } from "./steps/merkl";
import { settle, type NamedStep } from "./steps/stepResult";
import type { PassData } from "./writePass";

/** What the feeds give a pass: the data the on-chain part does not. */
type FeedData = Omit<PassData, "onchain" | "swaps" | "registry" | "tokenPrices" | "olderReadings">;

/** The feeds: DefiLlama yields, chart and dex volumes, and Merkl, concurrently. */
export async function readFeeds(parameters: ReadSourcesParameters): Promise<{ named: NamedStep[]; data: FeedData }> {
  const { store, pools, feeds, log, now } = parameters;
  const feedOptions: FeedRequestOptions = { ...parameters.feedOptions, log };
  const chainIds = [...new Set(pools.map((p) => p.chainId))].sort((a, b) => a - b);
  const [yields, chart, dex, merkl] = await Promise.all([
    settle(readYieldsStep({ db: store.db, pools, yieldsUrl: feeds.defillamaYieldsUrl, feedOptions }), null),
    settle(
      readChartStep({
        db: store.db,
        pools,
        yieldsUrl: feeds.defillamaYieldsUrl,
        feedOptions,
        backfillBelowDays: parameters.backfillBelowDays ?? 14,
      }),
      new Map(),
    ),
    settle(
      readDexVolumesStep({
        chainIds,
        apiUrl: feeds.defillamaApiUrl,
        feedOptions,
        days: parameters.dexVolumeDays ?? 30,
        now,
      }),
      [],
    ),
    settle(readMerklStep({ db: store.db, pools, chainIds, merklUrl: feeds.merklApiUrl, feedOptions, now }), null),
  ]);
  return {
    named: [
      ["defillama-yields", yields],
      ["defillama-chart", chart],
      ["defillama-dexs", dex],
      ["merkl", merkl],
    ],
    data: { llamaPools: yields.data, charts: chart.data, dexVolumes: dex.data, opportunities: merkl.data },
  };
}
