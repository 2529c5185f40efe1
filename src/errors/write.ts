import { BaseError } from "@attestation-registry/sdk/errors";

/** Errors of the keyed writes (`src/write`): every surface that writes (REST, later the dapp) maps them by `code`. */

const DOCS = "docs/keys.md";

export type InvalidLiquidityRequestErrorType = InvalidLiquidityRequestError & { name: "InvalidLiquidityRequestError" };
/**
 * A liquidity request whose body breaks a rule: `field` names the member, the message the rule. The code is the
 * API's `INVALID_REQUEST`, so a body refused here and one refused by the route's schema look the same to a client.
 */
export class InvalidLiquidityRequestError extends BaseError {
  /** The body member that is wrong (empty for the body as a whole). */
  readonly field: string;
  constructor({ field, message }: { field: string; message: string }) {
    super(message, { code: "INVALID_REQUEST", docsPath: `${DOCS}#the-request`, name: "InvalidLiquidityRequestError" });
    this.field = field;
  }
}

export type ChainMismatchErrorType = ChainMismatchError & { name: "ChainMismatchError" };
/** The body's `chainId` is not the chain of the pool it names (HTTP 400 `CHAIN_MISMATCH`). */
export class ChainMismatchError extends BaseError {
  readonly field = "chainId";
  /** The pool's qualified id. */
  readonly pool: string;
  constructor({ chainId, pool }: { chainId: number; pool: string }) {
    super(`chainId ${chainId} is not the chain of ${pool}; send the pool's own chain id.`, {
      code: "CHAIN_MISMATCH",
      docsPath: `${DOCS}#the-request`,
      name: "ChainMismatchError",
    });
    this.pool = pool;
  }
}

export type ChainNotTrackedErrorType = ChainNotTrackedError & { name: "ChainNotTrackedError" };
/** The body's `chainId` is well formed but no tracked pool is on that chain (HTTP 404 `CHAIN_NOT_TRACKED`). */
export class ChainNotTrackedError extends BaseError {
  readonly field = "chainId";
  constructor({ chainId }: { chainId: number }) {
    super(`No tracked pool is on chain ${chainId}; GET /api/v1/pools lists the tracked pools and their chains.`, {
      code: "CHAIN_NOT_TRACKED",
      docsPath: `${DOCS}#the-request`,
      name: "ChainNotTrackedError",
    });
  }
}

export type InvalidIdempotencyKeyErrorType = InvalidIdempotencyKeyError & { name: "InvalidIdempotencyKeyError" };
/** An `Idempotency-Key` that is empty, longer than 255 characters or not visible ASCII (HTTP 400). */
export class InvalidIdempotencyKeyError extends BaseError {
  readonly field = "Idempotency-Key";
  constructor() {
    super("Idempotency-Key must be 1 to 255 visible ASCII characters (no spaces), e.g. a UUID.", {
      code: "INVALID_IDEMPOTENCY_KEY",
      docsPath: `${DOCS}#idempotency`,
      name: "InvalidIdempotencyKeyError",
    });
  }
}

export type IdempotencyKeyReusedErrorType = IdempotencyKeyReusedError & { name: "IdempotencyKeyReusedError" };
/** The same API key sent this `Idempotency-Key` before with another body (HTTP 422 `IDEMPOTENCY_KEY_REUSED`). */
export class IdempotencyKeyReusedError extends BaseError {
  readonly field = "Idempotency-Key";
  constructor() {
    super(
      "This Idempotency-Key was already used with a different body; retry with the first body, or use a new key for a new request.",
      { code: "IDEMPOTENCY_KEY_REUSED", docsPath: `${DOCS}#idempotency`, name: "IdempotencyKeyReusedError" },
    );
  }
}
