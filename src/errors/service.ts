import { BaseError } from "./base";

const DOCS = "docs/data.md";

function asError(cause: unknown): Error | undefined {
  if (cause === undefined) return undefined;
  return cause instanceof Error ? cause : new Error(String(cause));
}

export type StoreOpenErrorType = StoreOpenError & { name: "StoreOpenError" };
/** The database could not be opened or migrated. */
export class StoreOpenError extends BaseError {
  constructor({ shortMessage, fix, cause }: { shortMessage: string; fix: string; cause?: unknown }) {
    super(shortMessage, {
      code: "STORE_OPEN_FAILED",
      docsPath: `${DOCS}#storage`,
      metaMessages: [fix],
      cause: asError(cause),
      name: "StoreOpenError",
    });
  }
}

export type FeedRequestErrorType = FeedRequestError & { name: "FeedRequestError" };
/** A feed could not be reached, timed out, or answered with an HTTP error after the allowed retries. */
export class FeedRequestError extends BaseError {
  readonly source: string;
  readonly url: string;
  readonly status: number | null;
  readonly attempts: number;
  constructor({
    source,
    url,
    status,
    attempts,
    reason,
    cause,
  }: {
    source: string;
    url: string;
    status: number | null;
    attempts: number;
    reason: string;
    cause?: unknown;
  }) {
    super(`Feed ${source} failed: ${reason}.`, {
      code: "FEED_REQUEST_FAILED",
      docsPath: `${DOCS}#feeds`,
      metaMessages: [
        `URL: ${url}`,
        `Attempts: ${attempts}${status === null ? "" : `, last HTTP status ${status}`}`,
        "Stored values are kept; they turn stale after the freshness window if the feed stays down.",
      ],
      cause: asError(cause),
      name: "FeedRequestError",
    });
    this.source = source;
    this.url = url;
    this.status = status;
    this.attempts = attempts;
  }
}

export type FeedValidationErrorType = FeedValidationError & { name: "FeedValidationError" };
/** A feed answered, but its body is not JSON or does not match the documented shape: the whole response is rejected. */
export class FeedValidationError extends BaseError {
  readonly source: string;
  readonly url: string;
  readonly issues: string[];
  constructor({ source, url, issues }: { source: string; url: string; issues: string[] }) {
    super(`Feed ${source} returned a response that does not match its schema; it was rejected whole.`, {
      code: "FEED_RESPONSE_INVALID",
      docsPath: `${DOCS}#feeds`,
      metaMessages: [`URL: ${url}`, ...issues.slice(0, 5).map((issue) => `Issue: ${issue}`)],
      name: "FeedValidationError",
    });
    this.source = source;
    this.url = url;
    this.issues = issues;
  }
}

export type PoolsFileErrorType = PoolsFileError & { name: "PoolsFileError" };
/** The pools file is missing, not JSON, or not in the documented format. */
export class PoolsFileError extends BaseError {
  readonly path: string;
  readonly issues: string[];
  constructor({ path, issues, cause }: { path: string; issues: string[]; cause?: unknown }) {
    super(`Pools file ${path} is not valid.`, {
      code: "POOLS_FILE_INVALID",
      docsPath: `${DOCS}#pools-file`,
      metaMessages: [...issues.slice(0, 10).map((issue) => `Issue: ${issue}`), "See the example in docs/data.md."],
      cause: asError(cause),
      name: "PoolsFileError",
    });
    this.path = path;
    this.issues = issues;
  }
}

export type HorizonInputErrorType = HorizonInputError & { name: "HorizonInputError" };
/** A parameter of the horizon model is out of range (e.g. a floor outside (0, 1]). */
export class HorizonInputError extends BaseError {
  readonly field: string;
  constructor({ field, value, expected }: { field: string; value: unknown; expected: string }) {
    super(`Horizon model parameter "${field}" is invalid.`, {
      code: "HORIZON_INPUT_INVALID",
      docsPath: `${DOCS}#horizon-model`,
      metaMessages: [`Received: ${JSON.stringify(value) ?? String(value)}`, `Expected: ${expected}`],
      name: "HorizonInputError",
    });
    this.field = field;
  }
}
