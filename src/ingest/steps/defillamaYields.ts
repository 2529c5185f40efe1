import type { PoolConfig } from "../../model/poolConfig";
import { fetchDefillamaPools, type DefillamaPool } from "../feeds/defillamaYields";
import type { FeedRequestOptions } from "../feeds/fetchJson";
import { failedReport, type StepResult } from "./stepResult";

/**
 * Source `defillama-yields`: the DefiLlama yields pools (`/pools`) of the tracked pools, by each pool's configured
 * `defillamaId` as written in the pools file. Uuids match in any letter case. Not configured (no report, null) without
 * a URL or when no tracked pool has a `defillamaId`. Rows: tracked pools found in the feed. Never throws.
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
    const byId = new Map(all.map((p) => [p.pool.toLowerCase(), p]));
    const tracked = new Map<string, DefillamaPool>();
    for (const { defillamaId } of pools) {
      const found = defillamaId ? byId.get(defillamaId.toLowerCase()) : undefined;
      if (found) tracked.set(defillamaId!, found);
    }
    return { report: { ok: true, rows: tracked.size }, data: tracked };
  } catch (error) {
    return { report: failedReport(error), data: null };
  }
}
