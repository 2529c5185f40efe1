import type { SourceReport } from "../storage/ingestRuns";

/** A pass's outcome as recorded in `ingest_runs.status`. */
export type PassStatus = "ok" | "partial" | "failed";

/** The name of the issuance step in a pass's reports. */
export const ISSUE_STEP = "issue";

/** The name of the grading step in a pass's reports. */
export const GRADE_STEP = "grade";

/** The steps of a pass (not data sources): they work on what the sources brought. */
const STEPS = new Set([ISSUE_STEP, GRADE_STEP]);

/**
 * The status of a finished pass from its reports (sources and the `issue` and `grade` steps):
 * - "ok" when every report is ok (also when there is none);
 * - "failed" when at least one data source ran and every one of them failed without delivering any row. Issuance is
 *   and grading are steps, not sources: signing nothing from no data must not turn a failed pass into a partial one;
 * - "partial" otherwise: some source (or a step) failed, or a source delivered only part (some pools).
 *
 * @example
 * passStatus({ "chain:1": { ok: false, error: "…", rows: 0 }, issue: { ok: true, rows: 0 } }); // "failed"
 */
export function passStatus(sources: Readonly<Record<string, SourceReport>>): PassStatus {
  const reports = Object.values(sources);
  if (reports.every((r) => r.ok)) return "ok";
  const data = Object.entries(sources)
    .filter(([name]) => !STEPS.has(name))
    .map(([, report]) => report);
  return data.length > 0 && data.every((r) => !r.ok && !r.rows) ? "failed" : "partial";
}
