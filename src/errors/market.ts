import { BaseError } from "@attestation-registry/sdk/errors";

/**
 * Errors of the market readers (`src/read`: volume, liquidity map, compare, roadmap, launch, activity). Every surface
 * (REST, MCP, pages) maps them by `code`; the HTTP statuses are in `src/service/errorBodies.ts`.
 */

const DOCS = "docs/market-api.md";

/** The most pools one comparison takes (spec §8). */
export const MAX_COMPARED_POOLS = 4;

export type TooManyPoolsErrorType = TooManyPoolsError & { name: "TooManyPoolsError" };
/** A comparison named more than {@link MAX_COMPARED_POOLS} pools. */
export class TooManyPoolsError extends BaseError {
  readonly field: string;
  constructor({ count, field = "pools" }: { count: number; field?: string }) {
    super(`A comparison takes at most ${MAX_COMPARED_POOLS} pools; ${count} were named.`, {
      code: "TOO_MANY_POOLS",
      docsPath: `${DOCS}#compare`,
      metaMessages: [`Name 1 to ${MAX_COMPARED_POOLS} distinct pools, separated by commas.`],
      name: "TooManyPoolsError",
    });
    this.field = field;
  }
}

export type NoPoolsErrorType = NoPoolsError & { name: "NoPoolsError" };
/** A comparison that names no pool. */
export class NoPoolsError extends BaseError {
  readonly field: string;
  constructor({ field = "pools" }: { field?: string } = {}) {
    super(`A comparison needs 1 to ${MAX_COMPARED_POOLS} pools; none was named.`, {
      code: "NO_POOLS",
      docsPath: `${DOCS}#compare`,
      name: "NoPoolsError",
    });
    this.field = field;
  }
}

export type RepeatedPoolErrorType = RepeatedPoolError & { name: "RepeatedPoolError" };
/** A comparison that names the same pool twice (in the same or another id shape). */
export class RepeatedPoolError extends BaseError {
  readonly field: string;
  /** The qualified id named more than once. */
  readonly pool: string;
  constructor({ pool, field = "pools" }: { pool: string; field?: string }) {
    super(`${pool} is named more than once; a comparison takes distinct pools.`, {
      code: "REPEATED_POOL",
      docsPath: `${DOCS}#compare`,
      name: "RepeatedPoolError",
    });
    this.field = field;
    this.pool = pool;
  }
}

export type InvalidCursorErrorType = InvalidCursorError & { name: "InvalidCursorError" };
/**
 * A paging cursor (activity, model claims) that this service did not hand out (or that was altered), or, with
 * `stale`, one handed out for model claims that have been recomputed since.
 */
export class InvalidCursorError extends BaseError {
  readonly field: string;
  constructor({ field = "cursor", stale = false }: { field?: string; stale?: boolean } = {}) {
    super(
      stale
        ? "The model evaluation was recomputed after this cursor was handed out; start again without a cursor."
        : "The cursor is not one this service handed out; pass the `next` value of a previous page, unchanged.",
      {
        code: "INVALID_CURSOR",
        docsPath: stale ? "docs/model.md#every-scored-claim-get-apiv1modelclaims" : `${DOCS}#activity`,
        name: "InvalidCursorError",
      },
    );
    this.field = field;
  }
}

export type MarketDataFileErrorType = MarketDataFileError & { name: "MarketDataFileError" };
/** A versioned data file of the read layer (roadmap, launch gates) does not have the documented shape. */
export class MarketDataFileError extends BaseError {
  constructor({ file, problem }: { file: string; problem: string }) {
    super(`The data file ${file} is invalid: ${problem}`, {
      code: "MARKET_DATA_FILE_INVALID",
      docsPath: DOCS,
      name: "MarketDataFileError",
    });
  }
}

export type InvalidParameterErrorType = InvalidParameterError & { name: "InvalidParameterError" };
/** A reader parameter outside its documented range (the REST schemas reject these first; MCP tools rely on this). */
export class InvalidParameterError extends BaseError {
  readonly field: string;
  constructor({ field, value, expected }: { field: string; value: unknown; expected: string }) {
    super(`"${field}" must be ${expected}; got ${String(JSON.stringify(value) ?? value).slice(0, 100)}.`, {
      code: "INVALID_PARAMETER",
      docsPath: DOCS,
      name: "InvalidParameterError",
    });
    this.field = field;
  }
}
