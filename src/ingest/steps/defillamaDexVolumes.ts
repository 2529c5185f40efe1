import type { DexVolume } from "../../storage/schema";
import { DEFILLAMA_CHAINS, fetchDexOverview } from "../feeds/defillamaDexVolumes";
import type { FeedRequestOptions } from "../feeds/fetchJson";
import { dexVolumeRows } from "../rows/dexVolumeRows";
import { errorMessage, requestsReport, type StepResult } from "./stepResult";

/**
 * Source `defillama-dexs`: DefiLlama's dex volume overview of each tracked chain DefiLlama knows, one chain after the
 * other, the last `days` days each. Not configured (no report) without a URL. Never throws.
 *
 * @returns the `dex_volumes` rows of the chains read.
 */
export async function readDexVolumesStep(parameters: {
  chainIds: readonly number[];
  apiUrl: string | undefined;
  feedOptions: FeedRequestOptions;
  days: number;
  /** Clock, Unix seconds: each chain's rows are observed when its overview arrived. */
  now: () => number;
}): Promise<StepResult<DexVolume[]>> {
  const { chainIds, apiUrl, feedOptions, days, now } = parameters;
  if (!apiUrl) return { report: undefined, data: [] };
  const rows: DexVolume[] = [];
  const errors: string[] = [];
  for (const chainId of chainIds) {
    const chain = DEFILLAMA_CHAINS[chainId];
    if (!chain) continue;
    try {
      const overview = await fetchDexOverview({ ...feedOptions, apiUrl, chain: chain.slug });
      rows.push(...dexVolumeRows({ chain: chain.name, overview, days, observedAt: now() }));
    } catch (error) {
      errors.push(`${chain.slug}: ${errorMessage(error)}`);
    }
  }
  return { report: requestsReport(rows.length, errors), data: rows };
}
