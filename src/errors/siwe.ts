import { BaseError } from "@attestation-registry/sdk/errors";

/**
 * Errors of Sign-In with Ethereum (EIP-4361, `src/auth`) and of the dapp's sessions. Each code is one reason; the HTTP
 * status of each is in `src/service/errorBodies.ts`: 400 when the message or signature cannot be read, 401 when it
 * reads but is not accepted, 403 for a request from another origin.
 */

const DOCS = "docs/sign-in.md";

export type InvalidSiweMessageErrorType = InvalidSiweMessageError & { name: "InvalidSiweMessageError" };
/** The text is not an EIP-4361 message under the strict grammar; `field` names the first part that is wrong. */
export class InvalidSiweMessageError extends BaseError {
  readonly field: string;
  constructor({ field, message }: { field: string; message: string }) {
    super(message, { code: "INVALID_SIWE_MESSAGE", docsPath: `${DOCS}#the-message`, name: "InvalidSiweMessageError" });
    this.field = field;
  }
}

export type SiweSignatureMalformedErrorType = SiweSignatureMalformedError & { name: "SiweSignatureMalformedError" };
/**
 * A signature that is not 65 bytes `r‖s‖v` with v ∈ {0, 1, 27, 28}, 1 ≤ r < n and 1 ≤ s ≤ n/2: the EIP-2098 compact
 * form, an ERC-6492 wrapper or any other smart-account signature, a high s, a bad v.
 */
export class SiweSignatureMalformedError extends BaseError {
  readonly field = "signature";
  readonly reason: string;
  constructor({ reason }: { reason: string }) {
    super(`The signature is not accepted: ${reason}.`, {
      code: "SIGNATURE_MALFORMED",
      docsPath: `${DOCS}#the-signature`,
      name: "SiweSignatureMalformedError",
    });
    this.reason = reason;
  }
}

export type SiweSignatureMismatchErrorType = SiweSignatureMismatchError & { name: "SiweSignatureMismatchError" };
/**
 * The signature does not recover (ecrecover) to the message's address: a wrong key, a message changed after signing,
 * or a smart-contract account (ERC-1271), which this service does not accept.
 */
export class SiweSignatureMismatchError extends BaseError {
  readonly field = "signature";
  constructor() {
    super(
      "The signature was not made by the message's address over this exact message (only externally owned accounts can sign in).",
      { code: "SIGNATURE_INVALID", docsPath: `${DOCS}#the-signature`, name: "SiweSignatureMismatchError" },
    );
  }
}

export type SiweDomainMismatchErrorType = SiweDomainMismatchError & { name: "SiweDomainMismatchError" };
/** The message's `domain` (host and port) or its optional scheme is not this service's own. */
export class SiweDomainMismatchError extends BaseError {
  readonly field: "domain" | "scheme";
  constructor({ field, expected }: { field: "domain" | "scheme"; expected: string }) {
    super(`The message's ${field} is not this service's; sign a message for ${expected}.`, {
      code: "SIWE_DOMAIN_MISMATCH",
      docsPath: `${DOCS}#what-is-checked`,
      name: "SiweDomainMismatchError",
    });
    this.field = field;
  }
}

export type SiweUriMismatchErrorType = SiweUriMismatchError & { name: "SiweUriMismatchError" };
/** The message's `URI` is of another origin than this service's (or carries user information). */
export class SiweUriMismatchError extends BaseError {
  readonly field = "uri";
  constructor({ expected }: { expected: string }) {
    super(`The message's URI must be on this service's origin, ${expected}.`, {
      code: "SIWE_URI_MISMATCH",
      docsPath: `${DOCS}#what-is-checked`,
      name: "SiweUriMismatchError",
    });
  }
}

export type SiweChainRefusedErrorType = SiweChainRefusedError & { name: "SiweChainRefusedError" };
/** The message's `Chain ID` is not one the service accepts (`SIWE_CHAIN_IDS`). */
export class SiweChainRefusedError extends BaseError {
  readonly field = "chainId";
  constructor({ chainId, accepted }: { chainId: number; accepted: readonly number[] }) {
    super(`Chain ${chainId} is not accepted for sign-in; use one of ${accepted.join(", ")}.`, {
      code: "SIWE_CHAIN_REFUSED",
      docsPath: `${DOCS}#what-is-checked`,
      name: "SiweChainRefusedError",
    });
  }
}

/** Why a nonce is refused. */
export type SiweNonceProblem = "unknown or already used" | "expired" | "not the expected nonce";

export type SiweNonceInvalidErrorType = SiweNonceInvalidError & { name: "SiweNonceInvalidError" };
/** The message's nonce was not issued by this service, was used already (once, by any attempt) or has expired. */
export class SiweNonceInvalidError extends BaseError {
  readonly field = "nonce";
  readonly reason: SiweNonceProblem;
  constructor({ reason }: { reason: SiweNonceProblem }) {
    super(`The nonce is ${reason}; get a new one from GET /auth/nonce and sign again.`, {
      code: "NONCE_INVALID",
      docsPath: `${DOCS}#nonces`,
      name: "SiweNonceInvalidError",
    });
    this.reason = reason;
  }
}

export type SiweMessageExpiredErrorType = SiweMessageExpiredError & { name: "SiweMessageExpiredError" };
/** The message's `Expiration Time` has passed. */
export class SiweMessageExpiredError extends BaseError {
  readonly field = "expirationTime";
  constructor() {
    super("The message has expired (its Expiration Time has passed); sign a new one.", {
      code: "SIWE_EXPIRED",
      docsPath: `${DOCS}#what-is-checked`,
      name: "SiweMessageExpiredError",
    });
  }
}

export type SiweIssuedTooLongAgoErrorType = SiweIssuedTooLongAgoError & { name: "SiweIssuedTooLongAgoError" };
/**
 * The message's `Issued At` lies further back than a sign-in can take (a nonce lives minutes): an old signed message
 * replayed with a fresh nonce is not a sign-in now. Answered as `SIWE_EXPIRED`.
 */
export class SiweIssuedTooLongAgoError extends BaseError {
  readonly field = "issuedAt";
  constructor({ maxAgeS }: { maxAgeS: number }) {
    super(`The message was issued more than ${maxAgeS} s ago; sign a new one.`, {
      code: "SIWE_EXPIRED",
      docsPath: `${DOCS}#what-is-checked`,
      name: "SiweIssuedTooLongAgoError",
    });
  }
}

export type SiweMessageNotYetValidErrorType = SiweMessageNotYetValidError & { name: "SiweMessageNotYetValidError" };
/** The message's `Not Before` is still in the future. */
export class SiweMessageNotYetValidError extends BaseError {
  readonly field = "notBefore";
  constructor() {
    super("The message is not valid yet (its Not Before is in the future).", {
      code: "SIWE_NOT_YET_VALID",
      docsPath: `${DOCS}#what-is-checked`,
      name: "SiweMessageNotYetValidError",
    });
  }
}

export type SiweIssuedInFutureErrorType = SiweIssuedInFutureError & { name: "SiweIssuedInFutureError" };
/** The message's `Issued At` is later than the service's clock plus the allowed skew. */
export class SiweIssuedInFutureError extends BaseError {
  readonly field = "issuedAt";
  constructor({ skewS }: { skewS: number }) {
    super(`The message's Issued At is more than ${skewS} s in the future; check the device's clock.`, {
      code: "SIWE_ISSUED_IN_FUTURE",
      docsPath: `${DOCS}#what-is-checked`,
      name: "SiweIssuedInFutureError",
    });
  }
}

export type SiweExpirationTooFarErrorType = SiweExpirationTooFarError & { name: "SiweExpirationTooFarError" };
/** The message's `Expiration Time` lies further ahead than the service accepts. */
export class SiweExpirationTooFarError extends BaseError {
  readonly field = "expirationTime";
  constructor({ maxS }: { maxS: number }) {
    super(`The message's Expiration Time is more than ${maxS} s ahead; leave it out or make it sooner.`, {
      code: "SIWE_EXPIRATION_TOO_FAR",
      docsPath: `${DOCS}#what-is-checked`,
      name: "SiweExpirationTooFarError",
    });
  }
}

export type SessionRequiredErrorType = SessionRequiredError & { name: "SessionRequiredError" };
/** A dapp route without a live session: no cookie, an unknown one, a signed-out one or an expired one. */
export class SessionRequiredError extends BaseError {
  constructor() {
    super("Sign in with Ethereum first: no live session (POST /auth/verify).", {
      code: "SESSION_REQUIRED",
      docsPath: `${DOCS}#sessions`,
      name: "SessionRequiredError",
    });
  }
}

export type OriginRefusedErrorType = OriginRefusedError & { name: "OriginRefusedError" };
/** A state-changing dapp request whose `Origin` header is missing or is not this service's origin (CSRF rule). */
export class OriginRefusedError extends BaseError {
  constructor({ expected }: { expected: string }) {
    super(`This request must come from a page of ${expected} (its Origin header is missing or another origin).`, {
      code: "ORIGIN_REFUSED",
      docsPath: `${DOCS}#csrf`,
      name: "OriginRefusedError",
    });
  }
}
