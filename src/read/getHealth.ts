import { StoreUnavailableError } from "../errors/storage";
import { countAttestations } from "../storage/attestations";
import { listIngestRuns } from "../storage/ingestRuns";
import { countPools } from "../storage/pools";
import { toNumberOrNull, type ReadContext } from "./context";

export type GetHealthReturnType = {
  status: "ok";
  pools: number;
  attestations: number;
  /** The most recent ingestion pass, or null before the first. */
  lastIngest: { startedAt: number; finishedAt: number | null; status: string } | null;
};

/**
 * The store's counts and the last ingestion pass, for probes. Never cached.
 *
 * @param context the {@link ReadContext} (only `db` is read).
 * @returns {@link GetHealthReturnType}
 * @throws {@link StoreUnavailableError} when the store does not answer.
 */
export async function getHealth({ db }: Pick<ReadContext, "db">): Promise<GetHealthReturnType> {
  const [pools, attestations, runs] = await Promise.all([
    countPools(db),
    countAttestations(db),
    listIngestRuns(db, 1),
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
  };
}
