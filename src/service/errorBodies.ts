import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance } from "fastify";
import { ApiError, ApiErrorCode } from "../errors/http";
import { ATTESTER_RETRY_AFTER_S } from "./plugins/app/attester";
import { findStoreUnavailable } from "../errors/storage";
import { isPublicError, publicErrorBody, type ErrorBody, type PublicErrorCode } from "../errors/publicErrorBody";

/** An error body: `{"error": {"code", "message", …}}`. */
export type { ErrorBody };

/**
 * The HTTP status of each domain error the shared readers throw (by its stable `code`); the body keeps the code
 * (`publicErrorBody`, which the MCP tools use too: the same code and message in an `isError` result).
 */
const STATUS_BY_DOMAIN_CODE: Record<PublicErrorCode, number> = {
  INVALID_POOL_ID: 400,
  POOL_NOT_FOUND: 404,
  NO_ATTESTATION: 404,
  AMBIGUOUS_POOL: 409,
  STORE_UNAVAILABLE: 503,
  // An attestation handed in to POST /verify (src/errors/verify.ts).
  INVALID_ATTESTATION: 400,
  INVALID_JSON: 400,
  // The keyed writes (src/errors/auth.ts, src/errors/write.ts).
  INVALID_REQUEST: 400,
  UNAUTHORIZED: 401,
  CHAIN_MISMATCH: 400,
  CHAIN_NOT_TRACKED: 404,
  INVALID_IDEMPOTENCY_KEY: 400,
  IDEMPOTENCY_KEY_REUSED: 422,
  // A wallet's key beyond MAX_KEYS_PER_WALLET.
  TOO_MANY_KEYS: 409,
  // The market readers (src/errors/market.ts). MARKET_DATA_FILE_INVALID stays a 500: a bad shipped file, not input.
  TOO_MANY_POOLS: 400,
  NO_POOLS: 400,
  REPEATED_POOL: 400,
  INVALID_CURSOR: 400,
  INVALID_PARAMETER: 400,
  // Alerts (src/errors/alerts.ts): a refused target is bad input; another owner's subscription is not found.
  ALERT_TARGET_REFUSED: 400,
  ALERT_SUBSCRIPTION_NOT_FOUND: 404,
  ALERT_SUBSCRIPTION_LIMIT: 409,
  ALERT_SUBSCRIPTION_KEY_REVOKED: 409,
  ALERT_SUBSCRIPTION_PAUSED: 409,
  ALERT_TEST_PENDING: 409,
  // Sign-in (src/errors/siwe.ts): 400 when the message or signature cannot be read, 401 when it is read but refused.
  INVALID_SIWE_MESSAGE: 400,
  SIGNATURE_MALFORMED: 400,
  SIGNATURE_INVALID: 401,
  NONCE_INVALID: 401,
  SIWE_DOMAIN_MISMATCH: 401,
  SIWE_URI_MISMATCH: 401,
  SIWE_CHAIN_REFUSED: 401,
  SIWE_EXPIRED: 401,
  SIWE_NOT_YET_VALID: 401,
  SIWE_ISSUED_IN_FUTURE: 401,
  SIWE_EXPIRATION_TOO_FAR: 401,
  SESSION_REQUIRED: 401,
  // A state-changing dapp request from another origin, or without an Origin header (the CSRF rule).
  ORIGIN_REFUSED: 403,
};

/**
 * `Retry-After` of a 503 `STORE_UNAVAILABLE`, in seconds: about how long a database restart takes. Clients and load
 * balancers retry then; the service reconnects by itself on the next request.
 */
export const STORE_RETRY_AFTER_S = 5;

/** The status an error is answered with (500 for anything unknown). */
export function httpStatusOf(error: Error): number {
  if (error instanceof ApiError) return error.statusCode;
  // A store error another error wraps is still the store's (the body says STORE_UNAVAILABLE too).
  if (findStoreUnavailable(error) !== null) return 503;
  if (isPublicError(error)) return STATUS_BY_DOMAIN_CODE[error.code];
  const status = (error as FastifyError).statusCode;
  return status !== undefined && status >= 400 && status < 600 ? status : 500;
}

/** Fastify's own body errors: status, code and message. */
const BY_FASTIFY_CODE: Record<string, [number, ApiErrorCode, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, ApiErrorCode.bodyTooLarge, "The request body is larger than 64 KiB."],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    415,
    ApiErrorCode.unsupportedMediaType,
    "Unsupported Content-Type; send application/json.",
  ],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, ApiErrorCode.invalidJson, "The body is empty; send the attestation JSON."],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, ApiErrorCode.invalidJson, "The body is not valid JSON."],
};

/**
 * Maps any error to a status, a stable body and the headers that go with it. Bad input is always a 4xx; a 5xx never
 * shows internals. A store that does not answer is 503 `STORE_UNAVAILABLE` with `Retry-After` (its cause hidden).
 */
export function toErrorBody(error: FastifyError | Error): {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
} {
  const { status, body } = statusAndBody(error);
  const retryAfter =
    body.code === ApiErrorCode.storeUnavailable
      ? STORE_RETRY_AFTER_S
      : body.code === ApiErrorCode.attesterUnknown
        ? ATTESTER_RETRY_AFTER_S
        : null;
  const headers: Record<string, string> = retryAfter === null ? {} : { "retry-after": String(retryAfter) };
  return { status, body, headers };
}

function statusAndBody(error: FastifyError | Error): { status: number; body: ErrorBody } {
  if (error instanceof ApiError || isPublicError(error) || findStoreUnavailable(error) !== null) {
    return { status: httpStatusOf(error), body: publicErrorBody(error)! };
  }
  const validation = (error as FastifyError).validation;
  if (validation && validation.length > 0) return validationErrorBody(error as FastifyError);
  const known = BY_FASTIFY_CODE[(error as FastifyError).code];
  if (known) return { status: known[0], body: { code: known[1], message: known[2] } };
  const status = (error as FastifyError).statusCode;
  if (status === 429) return { status, body: { code: ApiErrorCode.rateLimited, message: "Rate limit exceeded." } };
  if (status !== undefined && status >= 400 && status < 500) {
    return { status, body: { code: ApiErrorCode.invalidRequest, message: error.message.split("\n")[0] } };
  }
  if (status === 503) return { status, body: { code: ApiErrorCode.unavailable, message: "Service unavailable." } };
  return { status: 500, body: { code: ApiErrorCode.internal, message: "Internal server error." } };
}

function validationErrorBody(error: FastifyError): { status: number; body: ErrorBody } {
  const first = error.validation![0] as {
    instancePath?: string;
    message?: string;
    params?: { missingProperty?: string };
  };
  const path = [first.instancePath?.replace(/^\//, "").replace(/\//g, "."), first.params?.missingProperty]
    .filter((part) => part)
    .join(".");
  const context = error.validationContext ?? "request";
  return {
    status: 400,
    body: {
      code: ApiErrorCode.invalidRequest,
      message: `Invalid ${context}${path ? ` field "${path}"` : ""}: ${first.message ?? "does not match the schema"}.`,
      ...(path ? { field: path } : {}),
    },
  };
}

/**
 * Errors the router raises before any route runs (a parameter that is not valid percent-encoding, or longer than
 * `maxParamLength`), in the API's error shape: `INVALID_POOL_ID` under `/api/v1/pool/`, otherwise `INVALID_REQUEST`
 * naming a path parameter (the router fails before any route is chosen, so only the path tells them apart). The path
 * is never echoed.
 */
export function routerErrorBody(
  error: FastifyError,
  url = "",
): { status: number; body: { error: Record<string, string> } } {
  if (error.code === "FST_ERR_BAD_URL" || error.code === "FST_ERR_MAX_PARAM_LENGTH") {
    const what =
      error.code === "FST_ERR_BAD_URL" ? "is not valid percent-encoded UTF-8" : "is longer than 500 characters";
    // The router fails before any route is chosen: only the path says which parameter it was.
    if (/^\/api\/v1\/pool\//i.test(url)) {
      const shapes = "use 0x<address>, <chainId>:0x<address> or eip155:<chainId>:0x<address>";
      return {
        status: 400,
        body: {
          error: { code: ApiErrorCode.invalidPoolId, message: `The pool id ${what}; ${shapes}.`, field: "pool" },
        },
      };
    }
    return {
      status: 400,
      body: { error: { code: ApiErrorCode.invalidRequest, message: `A path parameter ${what}.` } },
    };
  }
  return { status: 400, body: { error: { code: ApiErrorCode.invalidRequest, message: "Invalid request." } } };
}

/**
 * HTTP-level client errors (a malformed request line or header, a bad Content-Length, headers over the size limit,
 * a request timeout): Node answers them before Fastify sees a request. Same shape as every other error body.
 */
export function clientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, code, message] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, ApiErrorCode.headersTooLarge, "The request headers are too large."]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, ApiErrorCode.requestTimeout, "The request was not received in time."]
        : [400, ApiErrorCode.badRequest, "The request is not valid HTTP."];
  this.log.debug({ err: error }, "client error");
  if (socket.writable) {
    const body = JSON.stringify({ error: { code, message } });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
