import { isStale } from "../../model/freshness";
import { computeHorizon } from "../../model/horizon";
import { getDailyLows } from "../../storage/poolDaily";
import type { PoolRecord } from "../../storage/pools";
import type { ReadContext } from "../context";

/**
 * Why a known pool has no attestation, from what its record already holds (no query): never observed, a stale depth, or
 * the issuer's own verdict from its last check (authoritative: it also knows campaign ends, which cap a horizon).
 * Null when the record says nothing yet (a pool no issuing pass has judged): {@link explainNoAttestation} then asks the
 * horizon model about the recorded history.
 *
 * @param pool the stored pool.
 * @param isOld its depth is older than the freshness window (`isStale`).
 */
export function storedNoAttestationReason(pool: PoolRecord, isOld: boolean): string | null {
  if (pool.depthObservedAt === null || pool.depthUsd === null) {
    return "its depth has not been observed yet; the next ingestion pass reads it.";
  }
  // A stale depth anchors no claim, whatever the history says: that is the reason, and the only one to give.
  if (
    isOld &&
    (pool.issueReason === null || pool.issueReason === "" || pool.issueReason === "no fresh depth observation")
  ) {
    return "its last depth observation is older than the freshness window: a stale depth anchors no claim; a new attestation follows the next fresh reading.";
  }
  const stale = isOld ? " Its last depth observation is older than the freshness window." : "";
  if (pool.issueReason !== null && pool.issueReason !== "") return `${pool.issueReason}.${stale}`;
  return null;
}

/** Why a known pool has no attestation: what the horizon model says about its recorded history. */
export async function explainNoAttestation(
  { db, freshnessWindowS, now }: ReadContext,
  pool: PoolRecord,
): Promise<string> {
  const observedAt = pool.depthObservedAt;
  const isOld = isStale({ observedAt, now: now(), windowS: freshnessWindowS });
  const stored = storedNoAttestationReason(pool, isOld);
  if (stored !== null) return stored;
  const daily = await getDailyLows(db, pool.chainId, pool.address);
  const stale = isOld ? " Its last depth observation is older than the freshness window." : "";
  let verdict: string;
  try {
    const result = computeHorizon({
      daily: daily.map((low) => ({ day: low.day, minDepthUsd: low.lowestDepthUsd })),
      depthNow: Number(pool.depthUsd),
    });
    verdict =
      result.horizonDays === null
        ? `${result.reason ?? "the horizon model publishes no horizon for this history"}.`
        : `the history now supports a ${result.horizonDays}-day horizon; the next ingestion pass issues it.`;
  } catch {
    verdict = `the horizon model cannot use the ${daily.length} day(s) of history recorded.`;
  }
  return `${verdict}${stale}`;
}
