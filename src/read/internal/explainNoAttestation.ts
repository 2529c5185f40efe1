import { isStale } from "../../model/freshness";
import { computeHorizon } from "../../model/horizon";
import { getDailyLows } from "../../storage/poolDaily";
import type { Pool } from "../../storage/schema";
import { toNumberOrNull, type ReadContext } from "../context";

/**
 * Why a known pool has no attestation, from what its row already holds (no query): never observed, a stale depth, or
 * the issuer's own verdict from its last check (authoritative: it also knows campaign ends, which cap a horizon).
 * Null when the row says nothing yet (a pool no issuing pass has judged): {@link explainNoAttestation} then asks the
 * horizon model about the recorded history.
 *
 * @param pool the pool's row.
 * @param isOld its depth is older than the freshness window (`isStale`).
 */
export function storedNoAttestationReason(pool: Pool, isOld: boolean): string | null {
  if (toNumberOrNull(pool.depth_observed_at) === null || pool.depth_usd === null) {
    return "its depth has not been observed yet; the next ingestion pass reads it.";
  }
  // A stale depth anchors no claim, whatever the history says: that is the reason, and the only one to give.
  if (
    isOld &&
    (pool.issue_reason === null || pool.issue_reason === "" || pool.issue_reason === "no fresh depth observation")
  ) {
    return "its last depth observation is older than the freshness window: a stale depth anchors no claim; a new attestation follows the next fresh reading.";
  }
  const stale = isOld ? " Its last depth observation is older than the freshness window." : "";
  if (pool.issue_reason !== null && pool.issue_reason !== "") return `${pool.issue_reason}.${stale}`;
  return null;
}

/** Why a known pool has no attestation: what the horizon model says about its recorded history. */
export async function explainNoAttestation({ db, freshnessWindowS, now }: ReadContext, pool: Pool): Promise<string> {
  const observedAt = toNumberOrNull(pool.depth_observed_at);
  const isOld = isStale({ observedAt, now: now(), windowS: freshnessWindowS });
  const stored = storedNoAttestationReason(pool, isOld);
  if (stored !== null) return stored;
  const daily = await getDailyLows(db, Number(pool.chain_id), pool.address);
  const stale = isOld ? " Its last depth observation is older than the freshness window." : "";
  let verdict: string;
  try {
    const result = computeHorizon({
      daily: daily.map((low) => ({ day: low.day, minDepthUsd: low.lowestDepthUsd })),
      depthNow: Number(pool.depth_usd),
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
