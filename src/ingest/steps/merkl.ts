import type { FeedRequestOptions } from "../feeds/fetchJson";
import { fetchMerklOpportunities, type MerklOpportunity } from "../feeds/merkl";
import { failedReport, type StepResult } from "./stepResult";

/**
 * Source `merkl`: Merkl LIVE and SOON opportunities with their campaigns on the tracked chains, read to the listing's
 * end. Not configured (no report, null) without a URL or without chains. A read stopped by the page bound keeps what
 * it read and reports not ok (`partial`), never ok. Rows: campaigns. Never throws.
 */
export async function readMerklStep(parameters: {
  chainIds: readonly number[];
  merklUrl: string | undefined;
  feedOptions: FeedRequestOptions;
  /** Bound on pages read; default `MERKL_MAX_PAGES`. */
  maxPages?: number;
}): Promise<StepResult<MerklOpportunity[] | null>> {
  const { chainIds, merklUrl, feedOptions, maxPages } = parameters;
  if (!merklUrl || chainIds.length === 0) return { report: undefined, data: null };
  try {
    const { opportunities, complete } = await fetchMerklOpportunities({
      ...feedOptions,
      merklUrl,
      chainIds: [...chainIds],
      ...(maxPages !== undefined ? { maxPages } : {}),
    });
    const rows = opportunities.reduce((n, o) => n + o.campaigns.length, 0);
    if (complete) return { report: { ok: true, rows }, data: opportunities };
    const error = `partial: stopped after ${opportunities.length} opportunities at the page bound`;
    return { report: { ok: false, rows, error }, data: opportunities };
  } catch (error) {
    return { report: failedReport(error), data: null };
  }
}
