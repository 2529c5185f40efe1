import { StoreUnavailableError } from "../errors/storage";
import { countAttestations } from "../storage/attestations";
import { latestFinishedIngestRun, listIngestRuns, runSourceReports, type SourceReport } from "../storage/ingestRuns";
import { countPools } from "../storage/pools";
import { toNumberOrNull, type ReadContext } from "./context";

export type GetHealthReturnType = {
  status: "ok";
  pools: number;
  attestations: number;
  /** The most recent ingestion pass, or null before the first. */
  lastIngest: { startedAt: number; finishedAt: number | null; status: string } | null;
  /**
   * Each source's report of the latest finished pass, by source name (`chain:1`, `defillama-yields`, `merkl` …): ok,
   * rows, the error, and what was left out and why (`dropped`, `rejectedRows`, `conflicts`, `reasons`). Empty before
   * the first finished pass.
   */
  sources: Record<string, SourceReport>;
};

/**
 * The store's counts, the last ingestion pass and each source's report of the latest finished one. Never cached.
 *
 * @param context the {@link ReadContext} (only `db` is read).
 * @returns {@link GetHealthReturnType}
 * @throws {@link StoreUnavailableError} when the store does not answer.
 */
export async function getHealth({ db }: Pick<ReadContext, "db">): Promise<GetHealthReturnType> {
  const [pools, attestations, runs, finished] = await Promise.all([
    countPools(db),
    countAttestations(db),
    listIngestRuns(db, 1),
    latestFinishedIngestRun(db),
  ]).catch((error: unknown) => {
    throw new StoreUnavailableError({ cause: error });
  });
  const run = runs[0];
  return {
    status: "ok",
    pools,
    attestations,
    lastIngest: run
      ? { startedAt: Number(run.started_at), finishedAt: toNumberOrNull(run.finished_at), status: run.status }
      : null,
    sources: finished ? runSourceReports(finished) : {},
  };
}
