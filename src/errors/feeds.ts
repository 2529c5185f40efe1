import { BaseError, asError } from "@attestation-registry/sdk/errors";

/** Errors of the third-party feeds (`src/ingest/feeds`): unreachable, or an answer that breaks its schema. */

const DOCS = "docs/data.md";

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
    const first =
      issues.length > 0 ? ` (${issues[0]}${issues.length > 1 ? `, and ${issues.length - 1} more` : ""})` : "";
    super(`Feed ${source} returned a response that does not match its schema${first}; it was rejected whole.`, {
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
