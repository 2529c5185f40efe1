import { scoreGraded, type CalibrationBucket } from "../model/evaluateModel";
import { listAccuracyRecords } from "../storage/accuracyRecords";
import type { ReadContext } from "./context";
import { gradedClaim, settlesAt, type GradedClaim } from "./internal/gradedClaim";
import { defineSurface } from "./defineSurface";
import { AccuracySchema } from "./schemas/accuracy";

/** Graded claims listed in `recent`. */
export const RECENT_GRADED = 20;

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
      confidence: record.confidenceHundredths / 100,
      horizon: record.horizonDays,
      outcome: record.outcome as "held" | "failed",
    }));
  const bySettle = [...records].sort(
    (a, b) => settlesAt(b) - settlesAt(a) || b.issuedAt - a.issuedAt || (a.address < b.address ? -1 : 1),
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

/** The surface, declared once: `GET /api/v1/accuracy` and the MCP tool `get_accuracy_record` are derived from it. */
export const surface = defineSurface({
  title: "The accuracy record: signed claims graded",
  label: "Accuracy record",
  description: [
    "Whether this attester's signed claims came true: every pool's first attestation of a UTC day, graded once its",
    "window (the horizon days after the issuance day) closed, from observed daily lows only. failed: a window day's",
    "low below the floor; void: a window day without an observed low; held: every day at or above it. Returns",
    "asOf (the last graded claim's settle day, null while nothing is graded), graded, held, failed, void, brier",
    "(held 1, failed 0, void left out; null when none), calibration buckets (n, effectiveN, meanConfidence,",
    "holdRate, interval90), byHorizon and recent (the 20 latest graded claims, latest settle first). A pool's claims",
    "with their signed attestations: get_pool_claims (GET /api/v1/pool/{pool}/claims).",
  ].join(" "),
  parameters: {},
  tags: ["attestations"],
  output: AccuracySchema,
  outputTitle: "AccuracyRecord",
  errors: [429, 500, 503],
  cacheKey: "accuracy",
  read: (context) => getAccuracy(context),
});
