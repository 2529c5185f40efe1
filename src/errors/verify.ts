import { BaseError } from "@attestation-registry/sdk/errors";

/**
 * Errors of checking an attestation a caller hands in (`POST /api/v1/verify`, the MCP tool `verify_attestation`):
 * the library's own errors (src/errors/attestation.ts) wrapped under the API's stable codes, so every surface answers
 * the same code, message and field.
 */

const DOCS = "docs/service.md#post-apiv1verify";

export type InvalidAttestationErrorType = InvalidAttestationError & { name: "InvalidAttestationError" };
/** The attestation handed in cannot be checked: a signed field is missing or malformed (`INVALID_ATTESTATION`). */
export class InvalidAttestationError extends BaseError {
  /** The attestation member that is wrong, when the library names one. */
  readonly field: string | undefined;
  constructor({ message, field, cause }: { message: string; field?: string | undefined; cause?: Error }) {
    super(message, { code: "INVALID_ATTESTATION", docsPath: DOCS, cause, name: "InvalidAttestationError" });
    this.field = field;
  }
}

export type AttestationJsonErrorType = AttestationJsonError & { name: "AttestationJsonError" };
/** The attestation's JSON text does not parse under the strict rules, e.g. a repeated member (`INVALID_JSON`). */
export class AttestationJsonError extends BaseError {
  /** The member the parser stopped at, when there is one. */
  readonly field: string | undefined;
  constructor({ message, field, cause }: { message: string; field?: string | undefined; cause?: Error }) {
    super(message, { code: "INVALID_JSON", docsPath: DOCS, cause, name: "AttestationJsonError" });
    this.field = field;
  }
}
