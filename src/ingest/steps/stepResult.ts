import { MAX_REPORT_REASONS, type SourceReport } from "../../storage/ingestRuns";
import type { RowCounts } from "../feeds/checkRows";

/**
 * What one step of a pass returns: its report for `ingest_runs` (undefined when the source is not configured, so
 * it is neither read nor reported) and the data it read. Steps only read; the pass writes everything afterwards.
 */
export interface StepResult<T> {
  report: SourceReport | undefined;
  data: T;
}

/** Longest error text kept in a report. */
const MAX_ERROR_CHARS = 500;

/** An error's short message (viem's `shortMessage` when present). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error);
}

/** The report of a source of several requests: ok when none failed, else the failures joined (500 chars at most). */
export function requestsReport(rows: number, errors: readonly string[]): SourceReport {
  return {
    ok: errors.length === 0,
    rows,
    ...(errors.length ? { error: errors.join("; ").slice(0, MAX_ERROR_CHARS) } : {}),
  };
}

/** The report of a source that failed whole. */
export function failedReport(error: unknown): SourceReport {
  return { ok: false, error: errorMessage(error), rows: 0 };
}

/** A report's `rejectedRows`, `conflicts` and `reasons`, each only when not zero or empty. */
export function countsReport(counts: RowCounts): Pick<SourceReport, "rejectedRows" | "conflicts" | "reasons"> {
  return {
    ...(counts.rejectedRows > 0 ? { rejectedRows: counts.rejectedRows } : {}),
    ...(counts.conflicts > 0 ? { conflicts: counts.conflicts } : {}),
    ...(counts.reasons.length > 0 ? { reasons: counts.reasons.slice(0, MAX_REPORT_REASONS) } : {}),
  };
}

/** A step's result, or (when it threw: only a store read can) its empty data and the failure. */
export type Settled<T> = StepResult<T> & { failure?: { reason: unknown } };

/** A settled step under the name it reports as (`chain:<id>`, `merkl`, …). */
export type NamedStep = [string, Settled<unknown>];

/** A step settled: when it throws, its `empty` data and the failure instead. */
export const settle = <T>(step: Promise<StepResult<T>>, empty: T): Promise<Settled<T>> =>
  step.catch((reason: unknown) => ({ report: undefined, data: empty, failure: { reason } }));
