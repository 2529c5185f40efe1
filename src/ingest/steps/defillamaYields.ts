import type { PoolConfig } from "../../model/poolConfig";
import { fetchDefillamaPools, type DefillamaPool } from "../feeds/defillamaYields";
import type { FeedRequestOptions } from "../feeds/fetchJson";
import { failedReport, type StepResult } from "./stepResult";

/**
 * Source `defillama-yields`: every DefiLlama yields pool (`/pools`), by pool uuid. Not configured (no report, null)
 * without a URL or when no tracked pool has a `defillamaId`. Rows: tracked pools found in the feed. Never throws.
 */
export async function readYieldsStep(parameters: {
  pools: readonly PoolConfig[];
  yieldsUrl: string | undefined;
  feedOptions: FeedRequestOptions;
}): Promise<StepResult<Map<string, DefillamaPool> | null>> {
  const { pools, yieldsUrl, feedOptions } = parameters;
  if (!yieldsUrl || !pools.some((p) => p.defillamaId)) return { report: undefined, data: null };
  try {
    const all = await fetchDefillamaPools({ ...feedOptions, yieldsUrl });
    const byId = new Map(all.map((p) => [p.pool, p]));
    const matched = pools.filter((p) => p.defillamaId && byId.has(p.defillamaId)).length;
    return { report: { ok: true, rows: matched }, data: byId };
  } catch (error) {
    return { report: failedReport(error), data: null };
  }
}
