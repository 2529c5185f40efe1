import type { FeedRequestOptions } from "../feeds/fetchJson";
import { fetchMerklOpportunities, type MerklOpportunity } from "../feeds/merkl";
import { failedReport, type StepResult } from "./stepResult";

/**
 * Source `merkl`: Merkl opportunities with their campaigns on the tracked chains. Not configured (no report, null)
 * without a URL or without chains. Rows: campaigns. Never throws.
 */
export async function readMerklStep(parameters: {
  chainIds: readonly number[];
  merklUrl: string | undefined;
  feedOptions: FeedRequestOptions;
}): Promise<StepResult<MerklOpportunity[] | null>> {
  const { chainIds, merklUrl, feedOptions } = parameters;
  if (!merklUrl || chainIds.length === 0) return { report: undefined, data: null };
  try {
    const opportunities = await fetchMerklOpportunities({ ...feedOptions, merklUrl, chainIds: [...chainIds] });
    return {
      report: { ok: true, rows: opportunities.reduce((n, o) => n + o.campaigns.length, 0) },
      data: opportunities,
    };
  } catch (error) {
    return { report: failedReport(error), data: null };
  }
}
