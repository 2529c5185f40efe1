import { z, type ZodType, type ZodTypeDef } from "zod";
import { MAX_REPORT_REASONS } from "../../storage/ingestRuns";

/** What was left out of a feed answer, one row at a time (a source report's `rejectedRows`, `conflicts`, `reasons`). */
export interface RowCounts {
  /** Rows skipped: not the documented shape, a number out of bounds, a timestamp out of range. */
  rejectedRows: number;
  /** Keys answered more than once with different values: every copy refused. */
  conflicts: number;
  /** The first reasons (at most `MAX_REPORT_REASONS`), e.g. `data[12].tvlUsd: 1e308 above 1e13`. */
  reasons: string[];
}

/** The usable rows of an answer and what was left out. */
export interface RowCheck<T> extends RowCounts {
  rows: T[];
  /** The keys refused as conflicts. */
  conflictKeys: string[];
}

/** Largest plausible USD figure (a TVL, a volume, a price): 1e13, ten trillion dollars. */
export const MAX_USD = 1e13;
/**
 * Smallest plausible non-zero USD amount (a TVL or a volume): a millionth of a dollar. A positive amount below it
 * (`1e-300`) is a unit slip or a rounding residue, never a measured figure; 0 itself is kept. Prices are not bound
 * below: a token can be worth 1e-9 USD.
 */
export const MIN_POSITIVE_USD = 1e-6;
/** Earliest plausible feed timestamp: 2015-01-01T00:00:00Z, Unix seconds. */
export const EARLIEST_TIMESTAMP = 1_420_070_400;
/** Latest plausible feed timestamp, from now: 5 years (365.25 days each). */
export const TIMESTAMP_FUTURE_S = Math.round(5 * 365.25 * 86_400);

const custom = (ctx: z.RefinementCtx, message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, message });

/** Why a USD number is not plausible (not finite, negative, above 1e13, or positive below 1e-6 when `amount`). */
function usdProblem(value: number, amount: boolean): string | undefined {
  if (!Number.isFinite(value)) return `${value} is not finite`;
  if (value < 0) return `${value} is negative`;
  if (value > MAX_USD) return `${value} above 1e13`;
  if (amount && value > 0 && value < MIN_POSITIVE_USD) return `${value} below 1e-6 (and not 0)`;
  return undefined;
}

/** A USD amount (TVL, volume): finite, 0 or within [1e-6, 1e13]. */
export const usdAmount = z.number().superRefine((value, ctx) => {
  const problem = usdProblem(value, true);
  if (problem) custom(ctx, problem);
});

/** A USD price per token: finite, within [0, 1e13]. */
export const usdPrice = z.number().superRefine((value, ctx) => {
  const problem = usdProblem(value, false);
  if (problem) custom(ctx, problem);
});

/** Why a Unix-seconds timestamp is refused, or undefined when it lies in [2015-01-01, now + 5 years]. */
export function timestampProblem(value: number, nowS = Date.now() / 1000): string | undefined {
  if (!Number.isInteger(value) || value < EARLIEST_TIMESTAMP || value > nowS + TIMESTAMP_FUTURE_S) {
    return `${value} is not Unix seconds within [2015-01-01, now + 5 years] (milliseconds are refused, never guessed)`;
  }
  return undefined;
}

/** Unix seconds within [2015-01-01, now + 5 years]; milliseconds and anything else are refused. */
export const unixSeconds = z.number().superRefine((value, ctx) => {
  const problem = timestampProblem(value);
  if (problem) custom(ctx, problem);
});

/** The first issue of a failed parse as `path: message`, the path under `prefix` (`data[12].tvlUsd`). */
export function firstIssue(prefix: string, error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.map((part) => (typeof part === "number" ? `[${part}]` : `.${part}`)).join("");
  return `${prefix}${path}: ${issue.message}`;
}

/** Parameters of {@link checkRows}. */
export interface CheckRowsParameters<T> {
  /** The answer's rows, unchecked. */
  items: readonly unknown[];
  /** Where the rows sit in the answer, for reasons: `data` gives `data[12].tvlUsd: …`. */
  path: string;
  /** One row's documented shape, bounds included. */
  schema: ZodType<T, ZodTypeDef, unknown>;
  /** A row's key: two rows with one key and different values are both refused. None: no key. */
  key?: (row: T) => string;
  /** What the key is, for reasons (`pool`, `timestamp`). */
  keyName?: string;
  /** A row's label in reasons; default `${path}[${i}]`. */
  label?: (index: number) => string;
}

/**
 * Checks a feed answer's rows one by one: a row not of the schema is skipped and counted with its first issue; of
 * rows sharing a key, identical copies are kept once and different ones are all refused (a conflict, never "last one
 * wins"). Rows come out in answer order.
 *
 * @example
 * checkRows({ items: body.data, path: "data", schema: poolSchema, key: (p) => p.pool.toLowerCase(), keyName: "pool" });
 * // { rows: [...], rejectedRows: 1, conflicts: 0, reasons: ["data[12].tvlUsd: 1e308 above 1e13"], conflictKeys: [] }
 */
export function checkRows<T>(parameters: CheckRowsParameters<T>): RowCheck<T> {
  const { items, path, schema, key, keyName = "key" } = parameters;
  const label = parameters.label ?? ((i: number) => `${path}[${i}]`);
  const reasons: string[] = [];
  const reason = (text: string) => {
    if (reasons.length < MAX_REPORT_REASONS) reasons.push(text);
  };
  let rejectedRows = 0;
  const parsed: T[] = [];
  items.forEach((item, i) => {
    const result = schema.safeParse(item);
    if (result.success) parsed.push(result.data);
    else {
      rejectedRows++;
      reason(firstIssue(label(i), result.error));
    }
  });
  if (!key) return { rows: parsed, rejectedRows, conflicts: 0, reasons, conflictKeys: [] };
  const { rows, conflictKeys } = refuseConflicts(parsed, key);
  for (const k of conflictKeys) reason(`${path}: ${keyName} ${JSON.stringify(k)} answered twice with different values`);
  return { rows, rejectedRows, conflicts: conflictKeys.length, reasons, conflictKeys };
}

/**
 * Of rows sharing a key, keeps one of identical copies and refuses all of different ones.
 *
 * @param value what is compared of a row (default its JSON).
 * @returns the rows kept in order, and the keys refused.
 */
export function refuseConflicts<T>(
  rows: readonly T[],
  key: (row: T) => string,
  value: (row: T) => string = (row) => JSON.stringify(row),
): { rows: T[]; conflictKeys: string[] } {
  const first = new Map<string, { row: T; json?: string }>();
  const conflicted = new Set<string>();
  const kept: T[] = [];
  for (const row of rows) {
    const k = key(row);
    const seen = first.get(k);
    if (!seen) {
      first.set(k, { row });
      kept.push(row);
      continue;
    }
    seen.json ??= value(seen.row);
    if (value(row) !== seen.json) conflicted.add(k);
  }
  if (conflicted.size === 0) return { rows: kept, conflictKeys: [] };
  return { rows: kept.filter((row) => !conflicted.has(key(row))), conflictKeys: [...conflicted] };
}

/** No rows left out. */
export const NO_COUNTS: RowCounts = { rejectedRows: 0, conflicts: 0, reasons: [] };

/** The counts of several answers of one source added up, the first reasons kept. */
export function addCounts(...counts: readonly RowCounts[]): RowCounts {
  return {
    rejectedRows: counts.reduce((n, c) => n + c.rejectedRows, 0),
    conflicts: counts.reduce((n, c) => n + c.conflicts, 0),
    reasons: counts.flatMap((c) => c.reasons).slice(0, MAX_REPORT_REASONS),
  };
}
