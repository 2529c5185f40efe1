import { BaseError } from "@attestation-registry/sdk/errors";

/** Stable error codes of the HTTP API (the `error.code` of every error body). Never reworded. */
export const ApiErrorCode = {
  invalidRequest: "INVALID_REQUEST",
  invalidPoolId: "INVALID_POOL_ID",
  invalidJson: "INVALID_JSON",
  invalidAttestation: "INVALID_ATTESTATION",
  poolNotFound: "POOL_NOT_FOUND",
  noAttestation: "NO_ATTESTATION",
  ambiguousPool: "AMBIGUOUS_POOL",
  badRequest: "BAD_REQUEST",
  headersTooLarge: "HEADERS_TOO_LARGE",
  requestTimeout: "REQUEST_TIMEOUT",
  routeNotFound: "ROUTE_NOT_FOUND",
  bodyTooLarge: "BODY_TOO_LARGE",
  unsupportedMediaType: "UNSUPPORTED_MEDIA_TYPE",
  rateLimited: "RATE_LIMITED",
  unauthorized: "UNAUTHORIZED",
  chainMismatch: "CHAIN_MISMATCH",
  chainNotTracked: "CHAIN_NOT_TRACKED",
  invalidIdempotencyKey: "INVALID_IDEMPOTENCY_KEY",
  idempotencyKeyReused: "IDEMPOTENCY_KEY_REUSED",
  unavailable: "SERVICE_UNAVAILABLE",
  /** The store (the database) does not answer now: 503 with `Retry-After`; retry later. */
  storeUnavailable: "STORE_UNAVAILABLE",
  /** An api process does not know its attester yet (no worker has issued, no ATTESTER_ADDRESS): 503, retry later. */
  attesterUnknown: "ATTESTER_UNKNOWN",
  internal: "INTERNAL_ERROR",
} as const;
export type ApiErrorCode = (typeof ApiErrorCode)[keyof typeof ApiErrorCode];

export type ApiErrorType = ApiError & { name: "ApiError" };

/**
 * An error the API answers with: an HTTP status, a stable `code` and a one-line message, plus optional
 * extra members that go into the body next to them (`field`, `candidates`, `reason`).
 */
export class ApiError extends BaseError {
  readonly statusCode: number;
  readonly extra: Record<string, unknown>;

  constructor({
    statusCode,
    code,
    message,
    extra = {},
    cause,
  }: {
    statusCode: number;
    code: ApiErrorCode;
    message: string;
    extra?: Record<string, unknown>;
    cause?: Error;
  }) {
    super(message, { code, cause, docsPath: "docs/service.md#errors", name: "ApiError" });
    this.statusCode = statusCode;
    this.extra = extra;
  }
}
