import type { Kysely } from "kysely";
import type { PoolConfig } from "../../model/poolConfig";
import { getCampaignsForPools } from "../../storage/campaigns";
import type { Database } from "../../storage/schema";
import type { FeedRequestOptions } from "../feeds/fetchJson";
import { fetchMerklOpportunities, type MerklOpportunity } from "../feeds/merkl";
import { countsReport, failedReport, type StepResult } from "./stepResult";

/**
 * Source `merkl`: Merkl LIVE and SOON opportunities with their campaigns on the tracked chains, read to the listing's
 * end. Not configured (no report, null) without a URL or without chains. A read stopped by the page bound keeps what
 * it read and reports not ok (`partial`), never ok. Rows: campaigns. A campaign that cannot be read fails the source
 * (null: the stored campaigns stay, none is dropped); conflicting campaigns are left out and counted (`conflicts`).
 *
 * An empty answer fails the source ("empty answer", null): no opportunity at all while the store holds a campaign of
 * a tracked pool that has not ended at `now`. Throws only when the store cannot be read.
 */
export async function readMerklStep(parameters: {
  /** The store, read only: the campaigns an empty answer would contradict. */
  db: Kysely<Database>;
  pools: readonly PoolConfig[];
  chainIds: readonly number[];
  merklUrl: string | undefined;
  feedOptions: FeedRequestOptions;
  /** Clock, Unix seconds. */
  now: () => number;
  /** Bound on pages read; default `MERKL_MAX_PAGES`. */
  maxPages?: number;
}): Promise<StepResult<MerklOpportunity[] | null>> {
  const { db, pools, chainIds, merklUrl, feedOptions, maxPages, now } = parameters;
  if (!merklUrl || chainIds.length === 0) return { report: undefined, data: null };
  let listing: Awaited<ReturnType<typeof fetchMerklOpportunities>>;
  try {
    listing = await fetchMerklOpportunities({
      ...feedOptions,
      merklUrl,
      chainIds: [...chainIds],
      ...(maxPages !== undefined ? { maxPages } : {}),
    });
  } catch (error) {
    return { report: failedReport(error), data: null };
  }
  const { opportunities, complete } = listing;
  const counts = countsReport({ rejectedRows: 0, ...listing });
  if (opportunities.length === 0) {
    const withId = pools.filter((p) => p.merklId).map((p) => ({ chainId: p.chainId, merklId: p.merklId! }));
    const at = now();
    const running = (await getCampaignsForPools(db, withId)).flat().filter((c) => c.endsAt === null || c.endsAt > at);
    if (running.length > 0) {
      const error = `empty answer: no opportunity while ${running.length} stored campaign(s) of tracked pools have not ended; stored campaigns kept`;
      return { report: { ok: false, rows: 0, error, ...counts }, data: null };
    }
  }
  const rows = opportunities.reduce((n, o) => n + o.campaigns.length, 0);
  if (complete) return { report: { ok: true, rows, ...counts }, data: opportunities };
  const error = `partial: stopped after ${opportunities.length} opportunities at the page bound`;
  return { report: { ok: false, rows, error, ...counts }, data: opportunities };
}
