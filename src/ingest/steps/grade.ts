import type { Kysely } from "kysely";
import { gradeClaims, type GradeCounts } from "../../attest/gradeClaims";
import { LeaseLostError, PassAbortedError } from "../../errors/lease";
import type { PassFence } from "../../storage/leaderLease";
import type { Database } from "../../storage/schema";
import { errorMessage, failedReport, type StepResult } from "./stepResult";

/**
 * Step `grade` (a step, not a data source): grades the claims whose window closed (`gradeClaims`, one fenced
 * transaction). Run only by a pass that issues (the leader's). Rows: claims graded. A failure is reported and logged,
 * never thrown, except a lost lease or a stop (the `fence`), which ends the pass; the claims stay ungraded and the
 * next pass grades them.
 */
export async function gradeStep(parameters: {
  db: Kysely<Database>;
  enabled: boolean;
  /** Unix seconds: the days before its UTC day are final. */
  now: () => number;
  log: (line: string) => void;
  fence?: PassFence;
}): Promise<StepResult<GradeCounts | null>> {
  const { db, enabled, now, log, fence } = parameters;
  if (!enabled) return { report: undefined, data: null };
  try {
    const counts = await gradeClaims(db, { now: now(), fence });
    const graded = counts.held + counts.failed + counts.void;
    if (graded > 0) log(`graded ${graded}: held ${counts.held}, failed ${counts.failed}, void ${counts.void}`);
    return { report: { ok: true, rows: graded }, data: counts };
  } catch (error) {
    if (error instanceof LeaseLostError || error instanceof PassAbortedError) throw error;
    log(`grade: ${errorMessage(error)}`);
    return { report: failedReport(error), data: null };
  }
}
