import type { DexVolumeRecord } from "../../storage/dexVolumes";
import { DEFILLAMA_CHAINS, fetchDexOverview } from "../feeds/defillamaDexVolumes";
import { addCounts, NO_COUNTS, type RowCounts } from "../feeds/checkRows";
import type { FeedRequestOptions } from "../feeds/fetchJson";
import { dexVolumeRows } from "../rows/dexVolumeRows";
import { countsReport, errorMessage, requestsReport, type StepResult } from "./stepResult";

/**
 * Source `defillama-dexs`: DefiLlama's dex volume overview of each tracked chain DefiLlama knows, one chain after the
 * other, the last `days` completed days each. Not configured (no report) without a URL. A chain DefiLlama has no name
for is named in the report's error (not ok), never skipped in silence. Values dropped as negative or missing are
counted in the report's `dropped`; rows left out (wrong shape, implausible value, conflicting points) in its
 * `rejectedRows` and `conflicts`. Never throws.
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
}): Promise<StepResult<DexVolumeRecord[]>> {
  const { chainIds, apiUrl, feedOptions, days, now } = parameters;
  if (!apiUrl) return { report: undefined, data: [] };
  const rows: DexVolumeRecord[] = [];
  const errors: string[] = [];
  let dropped = 0;
  let counts: RowCounts = NO_COUNTS;
  for (const chainId of chainIds) {
    const chain = DEFILLAMA_CHAINS[chainId];
    if (!chain) {
      errors.push(`chain ${chainId}: no DefiLlama chain name known`);
      continue;
    }
    try {
      const { overview, ...answer } = await fetchDexOverview({ ...feedOptions, apiUrl, chain: chain.slug });
      counts = addCounts(counts, { ...answer, reasons: answer.reasons.map((reason) => `${chain.slug}: ${reason}`) });
      const result = dexVolumeRows({ chain: chain.name, overview, days, observedAt: now() });
      rows.push(...result.rows);
      dropped += result.dropped;
    } catch (error) {
      errors.push(`${chain.slug}: ${errorMessage(error)}`);
    }
  }
  const report = {
    ...requestsReport(rows.length, errors),
    ...(dropped > 0 ? { dropped } : {}),
    ...countsReport(counts),
  };
  return { report, data: rows };
}
