import type { Kysely } from "kysely";
import { formatPoolId } from "@attestation-registry/sdk";
import { gradeClaim, settleDay, type ClaimOutcome } from "../model/gradeClaim";
import { insertAccuracyRecords, listUngradedClaims, type AccuracyRecord } from "../storage/accuracyRecords";
import { appendActivity, type NewActivity } from "../storage/activity";
import type { StoredAttestation } from "../storage/attestations";
import { assertFence, type PassFence } from "../storage/leaderLease";
import { getDailyLows, utcDay } from "../storage/poolDaily";
import type { Database } from "../storage/schema";

const DAY_S = 86_400;

/** Claims graded in one pass at most: a backlog (a leader down for days) is worked off over the next passes. */
export const GRADE_BATCH = 2_000;

/** What one grading pass did: the outcomes it wrote (a claim another process graded first is not counted). */
export type GradeCounts = Record<Exclude<ClaimOutcome, "pending">, number>;

/**
 * Grades the claims whose window has closed (docs/model.md#grading): each pool's first attestation of a UTC day,
 * once its settle day (issuance day + horizon) is over, by {@link gradeClaim} on the observed daily lows of its
 * window (a `feed-daily` snapshot is not an observed low). The grades and one `claim.graded` activity event per grade
 * are written in ONE transaction under the pass's `fence`, each grade once: a claim already graded (by this pass
 * before a crash, or by another leader) keeps its row and gets no second event.
 *
 * @param db the store.
 * @param parameters `now` (Unix seconds: days before its UTC day are final), the pass's `fence`.
 * @returns how many claims this call graded, per outcome.
 */
export async function gradeClaims(
  db: Kysely<Database>,
  parameters: { now: number; fence?: PassFence },
): Promise<GradeCounts> {
  const { now, fence } = parameters;
  const todayStart = Math.floor(now / DAY_S) * DAY_S;
  const lastFinalDay = utcDay(todayStart - DAY_S);
  const claims = await listUngradedClaims(db, { settledBefore: todayStart, limit: GRADE_BATCH });
  const counts: GradeCounts = { held: 0, failed: 0, void: 0 };
  if (claims.length === 0) return counts;

  const records: AccuracyRecord[] = [];
  for (const [, poolClaims] of groupByPool(claims)) {
    const first = poolClaims[0];
    const from = utcDay(Math.min(...poolClaims.map((claim) => claim.issuedAt)));
    const to = lastFinalDay;
    const observed = new Map<string, number>();
    for (const low of await getDailyLows(db, first.chainId, first.address, { from, to })) {
      // A feed-daily low is the feed's end-of-day snapshot, not an observed low.
      if (low.source === "observed") observed.set(low.day, low.lowestDepthUsd);
    }
    for (const claim of poolClaims) records.push(recordOf(claim, observed, lastFinalDay, now));
  }

  await db.transaction().execute(async (trx) => {
    await assertFence(trx, fence);
    const written = await insertAccuracyRecords(trx, records);
    const graded = records.filter((record) => written.has(record.attestationId));
    if (graded.length > 0) await appendActivity(trx, graded.map(gradedEvent));
    for (const record of graded) counts[record.outcome as keyof GradeCounts] += 1;
  });
  return counts;
}

/** The record of one settled claim. */
function recordOf(
  claim: StoredAttestation,
  observed: ReadonlyMap<string, number>,
  lastFinalDay: string,
  now: number,
): AccuracyRecord {
  const issuedAt = claim.issuedAt;
  const issuedDay = utcDay(issuedAt);
  const horizon = claim.horizonDays;
  const floorUsd = claim.floor * claim.depthAtIssuanceUsd;
  const grade = gradeClaim({ issuedDay, horizon, floorUsd }, (day) => observed.get(day) ?? null, lastFinalDay);
  return {
    attestationId: claim.id,
    chainId: claim.chainId,
    address: claim.address,
    issuedAt,
    issuedDay,
    horizonDays: horizon,
    confidenceHundredths: claim.confidenceHundredths,
    floorUsd,
    outcome: grade.outcome,
    lowestDepthUsd: grade.lowestDepthUsd,
    lowestDepthDate: grade.lowestDepthDate,
    gradedAt: now,
  };
}

/** The `claim.graded` event of a grade. */
function gradedEvent(record: AccuracyRecord): NewActivity {
  const poolId = formatPoolId({ chainId: record.chainId, address: record.address });
  const confidence = record.confidenceHundredths / 100;
  const settles = settleDay(record.issuedDay, record.horizonDays);
  const low =
    record.lowestDepthUsd === null ? "" : `, lowest ${record.lowestDepthUsd} USD on ${record.lowestDepthDate}`;
  return {
    kind: "claim.graded",
    at: record.gradedAt,
    pool: { chainId: record.chainId, address: record.address },
    summary:
      `Claim of ${record.issuedDay} for ${poolId} ${record.outcome}: ${record.horizonDays} days at ` +
      `confidence ${confidence.toFixed(2)}, floor ${record.floorUsd} USD, settled ${settles}${low}`,
    data: {
      poolId,
      attestationId: record.attestationId,
      issuedAt: record.issuedAt,
      horizon: record.horizonDays,
      confidence,
      floorUsd: record.floorUsd,
      settlesAt: record.issuedAt + record.horizonDays * DAY_S,
      outcome: record.outcome,
      lowestDepthUsd: record.lowestDepthUsd,
      lowestDepthDate: record.lowestDepthDate,
    },
  };
}

/** Claims by pool (`chainId:address`), in the order given. */
function groupByPool(claims: readonly StoredAttestation[]): Map<string, StoredAttestation[]> {
  const out = new Map<string, StoredAttestation[]>();
  for (const claim of claims) {
    const key = `${claim.chainId}:${claim.address}`;
    const list = out.get(key) ?? [];
    list.push(claim);
    out.set(key, list);
  }
  return out;
}
