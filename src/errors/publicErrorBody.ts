import { BaseError } from "@attestation-registry/sdk/errors";
import { ApiError } from "./http";
import { findStoreUnavailable } from "./storage";

/** An error as a caller sees it: `{code, message, …}` (the `error` member of an API error body, an MCP error text). */
export type ErrorBody = { code: string; message: string; [extra: string]: unknown };

/**
 * The domain error codes a caller is shown as they are: bad input, an unknown or ambiguous pool, a store that does
 * not answer. Every surface (the REST API, the MCP tools) answers them with the same code and message; every other
 * error is hidden behind `INTERNAL_ERROR`. The HTTP status of each is in `src/service/errorBodies.ts` (its map is
 * typed by {@link PublicErrorCode}: a new public code goes here first, then gets its status there).
 */
export const PUBLIC_ERROR_CODES = [
  // The pool readers (src/errors/pool.ts) and the store (src/errors/storage.ts).
  "INVALID_POOL_ID",
  "POOL_NOT_FOUND",
  "NO_ATTESTATION",
  "AMBIGUOUS_POOL",
  "STORE_UNAVAILABLE",
  // An attestation handed in to be checked (src/errors/verify.ts).
  "INVALID_ATTESTATION",
  "INVALID_JSON",
  // The keyed writes (src/errors/auth.ts, src/errors/write.ts).
  "INVALID_REQUEST",
  "UNAUTHORIZED",
  "CHAIN_MISMATCH",
  "CHAIN_NOT_TRACKED",
  "INVALID_IDEMPOTENCY_KEY",
  "IDEMPOTENCY_KEY_REUSED",
  "TOO_MANY_KEYS",
  // The market readers (src/errors/market.ts). MARKET_DATA_FILE_INVALID is not here: a bad shipped file, not input.
  "TOO_MANY_POOLS",
  "NO_POOLS",
  "REPEATED_POOL",
  "INVALID_CURSOR",
  "INVALID_PARAMETER",
  // Alerts (src/errors/alerts.ts).
  "ALERT_TARGET_REFUSED",
  "ALERT_SUBSCRIPTION_NOT_FOUND",
  "ALERT_SUBSCRIPTION_LIMIT",
  "ALERT_SUBSCRIPTION_KEY_REVOKED",
  "ALERT_SUBSCRIPTION_PAUSED",
  "ALERT_TEST_PENDING",
  // Sign-In with Ethereum and the dapp's sessions (src/errors/siwe.ts).
  "INVALID_SIWE_MESSAGE",
  "SIGNATURE_MALFORMED",
  "SIGNATURE_INVALID",
  "NONCE_INVALID",
  "SIWE_DOMAIN_MISMATCH",
  "SIWE_URI_MISMATCH",
  "SIWE_CHAIN_REFUSED",
  "SIWE_EXPIRED",
  "SIWE_NOT_YET_VALID",
  "SIWE_ISSUED_IN_FUTURE",
  "SIWE_EXPIRATION_TOO_FAR",
  "SESSION_REQUIRED",
  "ORIGIN_REFUSED",
] as const;
export type PublicErrorCode = (typeof PUBLIC_ERROR_CODES)[number];

/** Members of a domain error that go into the body next to `code` and `message`. */
const EXTRA_MEMBERS = ["field", "pool", "candidates", "reason"] as const;

/** Whether `error` is a domain error whose code a caller is shown (see {@link PUBLIC_ERROR_CODES}). */
export function isPublicError(error: unknown): error is BaseError & { code: PublicErrorCode } {
  return error instanceof BaseError && (PUBLIC_ERROR_CODES as readonly string[]).includes(error.code);
}

/**
 * The body a caller is shown for `error`: an {@link ApiError}'s code, message and extra members; a public domain
 * error's code, one-line message and its `field`, `pool`, `candidates` and `reason` when set; `STORE_UNAVAILABLE` for
 * a store that does not answer, also when another error wraps it (its cause hidden); `null` for anything else, which
 * a surface must hide (the REST API answers 500 `INTERNAL_ERROR`). Never includes a stack, a cause or `metaMessages`.
 *
 * @example
 * import { publicErrorBody } from "../errors/publicErrorBody";
 * publicErrorBody(new PoolNotFoundError({ pool: "eip155:1:0xb4e1…" }));
 * // { code: "POOL_NOT_FOUND", message: "eip155:1:0xb4e1… is not a tracked pool; …", pool: "eip155:1:0xb4e1…" }
 */
export function publicErrorBody(error: unknown): ErrorBody | null {
  if (error instanceof ApiError) return { code: error.code, message: error.shortMessage, ...error.extra };
  const unavailable = findStoreUnavailable(error);
  if (unavailable !== null) return { code: unavailable.code, message: unavailable.shortMessage };
  if (!isPublicError(error)) return null;
  const extra: Record<string, unknown> = {};
  for (const member of EXTRA_MEMBERS) {
    const value = (error as unknown as Record<string, unknown>)[member];
    if (value !== undefined) extra[member] = value;
  }
  return { code: error.code, message: error.shortMessage, ...extra };
}
