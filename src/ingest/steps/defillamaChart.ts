import type { Kysely } from "kysely";
import type { PoolConfig } from "../../model/poolConfig";
import { countDailyHistoryDays } from "../../storage/poolDaily";
import type { Database } from "../../storage/schema";
import { fetchDefillamaChart, type DefillamaChartPoint } from "../feeds/defillamaYields";
import { addCounts, NO_COUNTS, type RowCounts } from "../feeds/checkRows";
import type { FeedRequestOptions } from "../feeds/fetchJson";
import { poolKey } from "../poolKey";
import { countsReport, errorMessage, requestsReport, type StepResult } from "./stepResult";

/** Chart requests in flight at once. */
const CONCURRENCY = 4;

/** Parameters of {@link readChartStep}. */
export interface ReadChartStepParameters {
  /** The store, read only: which pools still have a short history. */
  db: Kysely<Database>;
  pools: readonly PoolConfig[];
  yieldsUrl: string | undefined;
  feedOptions: FeedRequestOptions;
  /** Pools with fewer recorded days than this get their DefiLlama `/chart` read. */
  backfillBelowDays: number;
}

/**
 * Source `defillama-chart`: DefiLlama `/chart` history of the pools (with a `defillamaId`) whose stored daily history
 * is shorter than `backfillBelowDays`, a few requests at a time. Not configured (no report) without a URL or when no
 * pool needs it. The uuid is sent in lower case, as DefiLlama spells it. Rows: pools whose chart was read. Points left
 * out (wrong shape, implausible value, two different points at one time) are counted in the report. Throws only when the store cannot be read.
 *
 * @returns the chart points by {@link poolKey}.
 */
export async function readChartStep(
  parameters: ReadChartStepParameters,
): Promise<StepResult<Map<string, DefillamaChartPoint[]>>> {
  const { db, pools, yieldsUrl, feedOptions, backfillBelowDays } = parameters;
  const charts = new Map<string, DefillamaChartPoint[]>();
  if (!yieldsUrl) return { report: undefined, data: charts };
  const candidates = pools.filter((p) => p.defillamaId);
  const days = await countDailyHistoryDays(db, candidates);
  const wanted: PoolConfig[] = candidates.filter((_, i) => days[i] < backfillBelowDays);
  if (wanted.length === 0) return { report: undefined, data: charts };
  const errors: string[] = [];
  let counts: RowCounts = NO_COUNTS;
  const queue = [...wanted];
  const worker = async () => {
    for (let p = queue.shift(); p !== undefined; p = queue.shift()) {
      try {
        const poolId = p.defillamaId!.toLowerCase();
        const answer = await fetchDefillamaChart({ ...feedOptions, yieldsUrl, poolId });
        charts.set(poolKey(p.chainId, p.address), answer.rows);
        counts = addCounts(counts, { ...answer, reasons: answer.reasons.map((reason) => `${poolId}: ${reason}`) });
      } catch (error) {
        errors.push(`${p.defillamaId}: ${errorMessage(error)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, wanted.length) }, worker));
  return { report: { ...requestsReport(charts.size, errors), ...countsReport(counts) }, data: charts };
}
