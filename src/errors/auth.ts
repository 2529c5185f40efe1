import { BaseError } from "@attestation-registry/sdk/errors";

/** Errors of API-key authentication (`src/write/authenticateApiKey.ts` and the service's auth plugin). */

const DOCS = "docs/keys.md";

/**
 * Why a request is not authenticated. Kept on the error for logs and tests; the HTTP body says only what the caller
 * can fix (an unknown and a revoked key get the same answer).
 */
export type UnauthorizedProblem = "missing" | "malformed" | "unknown" | "revoked";

const MESSAGES: Record<UnauthorizedProblem, string> = {
  missing: "This route needs an API key: send Authorization: Bearer <key>.",
  malformed:
    "The Authorization header must be Bearer <key>, a key of 32 to 512 characters from A-Z a-z 0-9 - . _ ~ + /.",
  unknown: "The API key is not valid (unknown or revoked).",
  revoked: "The API key is not valid (unknown or revoked).",
};

export type UnauthorizedErrorType = UnauthorizedError & { name: "UnauthorizedError" };
/** No API key, a malformed one, or one the store does not know or has revoked (HTTP 401 `UNAUTHORIZED`). */
export class UnauthorizedError extends BaseError {
  readonly problem: UnauthorizedProblem;
  constructor({ problem }: { problem: UnauthorizedProblem }) {
    super(MESSAGES[problem], { code: "UNAUTHORIZED", docsPath: `${DOCS}#errors`, name: "UnauthorizedError" });
    this.problem = problem;
  }
}

export type InvalidApiKeyParameterErrorType = InvalidApiKeyParameterError & { name: "InvalidApiKeyParameterError" };
/** A wallet's new key with a bad owner address or label (the dapp's form; HTTP 400 `INVALID_REQUEST`). */
export class InvalidApiKeyParameterError extends BaseError {
  readonly field: string;
  constructor({ field, message }: { field: string; message: string }) {
    super(message, { code: "INVALID_REQUEST", docsPath: `${DOCS}#wallet-keys`, name: "InvalidApiKeyParameterError" });
    this.field = field;
  }
}

export type TooManyApiKeysErrorType = TooManyApiKeysError & { name: "TooManyApiKeysError" };
/**
 * The wallet already holds the most keys one wallet may (`MAX_KEYS_PER_WALLET`, revoked keys not counted): revoke one
 * first (HTTP 409 `TOO_MANY_KEYS`).
 */
export class TooManyApiKeysError extends BaseError {
  readonly limit: number;
  constructor({ limit, perDay }: { limit: number; perDay?: number }) {
    const message =
      perDay === undefined
        ? `A wallet may hold at most ${limit} API keys that are not revoked; revoke one first.`
        : `A wallet may create at most ${perDay} API keys in 24 hours, revoked ones included; try again later.`;
    super(message, {
      code: "TOO_MANY_KEYS",
      docsPath: `${DOCS}#wallet-keys`,
      name: "TooManyApiKeysError",
    });
    this.limit = limit;
  }
}
