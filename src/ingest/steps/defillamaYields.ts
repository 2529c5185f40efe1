import type { Kysely } from "kysely";
import type { PoolConfig } from "../../model/poolConfig";
import { getPools } from "../../storage/pools";
import type { Database } from "../../storage/schema";
import { fetchDefillamaPools, type DefillamaPool } from "../feeds/defillamaYields";
import type { FeedRequestOptions } from "../feeds/fetchJson";
import { countsReport, failedReport, type StepResult } from "./stepResult";

/**
 * Source `defillama-yields`: the DefiLlama yields pools (`/pools`) of the tracked pools, by each pool's configured
 * `defillamaId` as written in the pools file. Uuids match in any letter case. Not configured (no report, null) without
 * a URL or when no tracked pool has a `defillamaId`. Rows: tracked pools found in the feed. Rows of the answer left
 * out (wrong shape, implausible value, conflicting copies) are counted in the report, which stays ok.
 *
 * An empty answer fails the source ("empty answer"), the stored values staying: an answer with no usable row at all,
 * or one that lists none of the tracked pools (and refuses none of them as a conflict) while the store holds a value
 * from this feed for at least one of them. Throws only when the store cannot be read.
 */
export async function readYieldsStep(parameters: {
  /** The store, read only: whether tracked pools already hold values from this feed. */
  db: Kysely<Database>;
  pools: readonly PoolConfig[];
  yieldsUrl: string | undefined;
  feedOptions: FeedRequestOptions;
}): Promise<StepResult<Map<string, DefillamaPool> | null>> {
  const { db, pools, yieldsUrl, feedOptions } = parameters;
  if (!yieldsUrl || !pools.some((p) => p.defillamaId)) return { report: undefined, data: null };
  let answer: Awaited<ReturnType<typeof fetchDefillamaPools>>;
  try {
    answer = await fetchDefillamaPools({ ...feedOptions, yieldsUrl });
  } catch (error) {
    return { report: failedReport(error), data: null };
  }
  const byId = new Map(answer.rows.map((p) => [p.pool.toLowerCase(), p]));
  const tracked = new Map<string, DefillamaPool>();
  for (const { defillamaId } of pools) {
    const found = defillamaId ? byId.get(defillamaId.toLowerCase()) : undefined;
    if (found) tracked.set(defillamaId!, found);
  }
  const counts = countsReport(answer);
  if (answer.rows.length === 0) {
    const error = `empty answer: /pools gave no usable row (${answer.answered} rows answered); stored values kept`;
    return { report: { ok: false, rows: 0, error, ...counts }, data: null };
  }
  if (tracked.size === 0) {
    const conflicted = new Set(answer.conflictKeys);
    const withId = pools.filter((p) => p.defillamaId);
    const anyConflict = withId.some((p) => conflicted.has(p.defillamaId!.toLowerCase()));
    const stored = (await getPools(db, withId)).some((pool) => pool?.feedObservedAt != null);
    if (stored && !anyConflict) {
      const error = `empty answer: /pools lists none of the ${withId.length} tracked pools that hold values from it; stored values kept`;
      return { report: { ok: false, rows: 0, error, ...counts }, data: null };
    }
  }
  return { report: { ok: true, rows: tracked.size, ...counts }, data: tracked };
}
