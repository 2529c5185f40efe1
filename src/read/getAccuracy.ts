import { formatPoolId } from "../lib/formatPoolId";
import { scoreGraded, type CalibrationBucket } from "../model/evaluateModel";
import { listAccuracyRecords, type AccuracyRecord } from "../storage/accuracyRecords";
import type { ReadContext } from "./context";

/** Graded claims listed in `recent`. */
export const RECENT_GRADED = 20;

const DAY_S = 86_400;

/** A graded claim as the accuracy record publishes it. */
export type GradedClaim = {
  /** `eip155:<chainId>:<address>`. */
  pool: string;
  /** Unix seconds. */
  issuedAt: number;
  horizon: number;
  confidence: number;
  /** USD: floor × the depth the attestation states. */
  floorUsd: number;
  /** Unix seconds: issuedAt + horizon days. */
  settlesAt: number;
  outcome: "held" | "failed" | "void";
  lowestDepthUsd: number | null;
  lowestDepthDate: string | null;
};

export type GetAccuracyReturnType = {
  /** The last graded claim's settle day (`YYYY-MM-DD`), or null while the record is empty. */
  asOf: string | null;
  graded: number;
  held: number;
  failed: number;
  void: number;
  /** Mean of (confidence − outcome)² over held (1) and failed (0) claims; void left out; null when none. */
  brier: number | null;
  buckets: CalibrationBucket[];
  byHorizon: { horizon: number; n: number; holdRate: number }[];
  /** The last {@link RECENT_GRADED} graded claims, latest settle first. */
  recent: GradedClaim[];
};

/**
 * The accuracy record (docs/model.md#grading): every claim this attester signed whose window closed, graded once
 * from observed daily lows, and its scores (as the model evaluation scores its backtest, void claims left out).
 *
 * @param context the {@link ReadContext} (only `db` is read).
 * @returns {@link GetAccuracyReturnType}
 */
export async function getAccuracy({ db }: Pick<ReadContext, "db">): Promise<GetAccuracyReturnType> {
  const records = await listAccuracyRecords(db);
  const count = (outcome: string) => records.filter((record) => record.outcome === outcome).length;
  const scored = records
    .filter((record) => record.outcome !== "void")
    .map((record) => ({
      confidence: record.confidence_hundredths / 100,
      horizon: record.horizon_days,
      outcome: record.outcome as "held" | "failed",
    }));
  const bySettle = [...records].sort(
    (a, b) => settlesAt(b) - settlesAt(a) || b.issued_at - a.issued_at || (a.address < b.address ? -1 : 1),
  );
  const latest = bySettle[0];
  return {
    asOf: latest === undefined ? null : new Date(settlesAt(latest) * 1000).toISOString().slice(0, 10),
    graded: records.length,
    held: count("held"),
    failed: count("failed"),
    void: count("void"),
    ...scoreGraded(scored),
    recent: bySettle.slice(0, RECENT_GRADED).map(gradedClaim),
  };
}

/** The published form of a record. */
export function gradedClaim(record: AccuracyRecord): GradedClaim {
  return {
    pool: formatPoolId({ chainId: record.chain_id, address: record.address }),
    issuedAt: record.issued_at,
    horizon: record.horizon_days,
    confidence: record.confidence_hundredths / 100,
    floorUsd: record.floor_usd,
    settlesAt: settlesAt(record),
    outcome: record.outcome as GradedClaim["outcome"],
    lowestDepthUsd: record.lowest_depth_usd,
    lowestDepthDate: record.lowest_depth_date,
  };
}

function settlesAt(record: AccuracyRecord): number {
  return record.issued_at + record.horizon_days * DAY_S;
}
