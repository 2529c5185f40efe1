import type { Kysely } from "kysely";
import { countAccuracyRecords, countPendingClaims } from "../../storage/accuracyRecords";
import { countActivity } from "../../storage/activity";
import { countAttestations, countAttestedPools } from "../../storage/attestations";
import { countCampaigns } from "../../storage/campaigns";
import { countIngestRuns } from "../../storage/ingestRuns";
import { countLiquidityRequests } from "../../storage/liquidityRequests";
import { countPools } from "../../storage/pools";
import type { Database } from "../../storage/schema";
import { countBondedAttesters } from "./countBondedAttesters";

/**
 * The counts the roadmap (and the launch gates) compute from the store at request time, by name. A count is null
 * when the store cannot tell (e.g. the registry's log has never been read), which is not zero.
 */
export const STORE_COUNTERS = {
  /** Pools in the pools file, as stored. */
  poolsTracked: countPools,
  /** Pools with at least one attestation. */
  poolsAttested: countAttestedPools,
  attestationsIssued: countAttestations,
  /** Claims waiting for their grade: each pool's first attestation of a UTC day, not graded yet. */
  claimsPending: countPendingClaims,
  /** Rows of the accuracy record: claims graded once their window closed. */
  claimsGraded: countAccuracyRecords,
  /** Attesters bonded now, replayed from the registry's events in the activity log. */
  attestersBonded: countBondedAttesters,
  liquidityRequestsReceived: countLiquidityRequests,
  eventsLogged: countActivity,
  campaignsTracked: countCampaigns,
  ingestPasses: countIngestRuns,
} satisfies Record<string, (db: Kysely<Database>) => Promise<number | null>>;

export type StoreCounter = keyof typeof STORE_COUNTERS;

/** Runs the named counters (each once) and returns their values by name. */
export async function countStore(
  db: Kysely<Database>,
  names: readonly StoreCounter[],
): Promise<Record<StoreCounter, number | null>> {
  const unique = [...new Set(names)];
  const values = await Promise.all(unique.map((name) => STORE_COUNTERS[name](db)));
  return Object.fromEntries(unique.map((name, i) => [name, values[i]])) as Record<StoreCounter, number | null>;
}
