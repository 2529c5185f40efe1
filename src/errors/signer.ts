import { BaseError, asError } from "@attestation-registry/sdk/errors";

/** Errors of the attester's signer (`src/attest/signer.ts`): a remote JSON-RPC signer that failed or misbehaved. */

const DOCS = "docs/operations.md#signing-with-a-remote-signer";

export type AttesterSignerErrorType = AttesterSignerError & { name: "AttesterSignerError" };
/**
 * The remote signer did not give a usable signature by `ATTESTER_ADDRESS`: it did not answer, refused, or returned a
 * signature that is malformed, high-s, or recovers to another address. Nothing it signed is stored.
 */
export class AttesterSignerError extends BaseError {
  /** What went wrong, for programs: `unreachable` (no answer or an RPC error), `invalid` or `wrong-signer`. */
  readonly problem: "unreachable" | "invalid" | "wrong-signer";
  constructor({
    problem,
    shortMessage,
    fix,
    cause,
  }: {
    problem: AttesterSignerError["problem"];
    shortMessage: string;
    fix: string;
    cause?: unknown;
  }) {
    super(shortMessage, {
      code: "ATTESTER_SIGNER_FAILED",
      docsPath: DOCS,
      metaMessages: [fix],
      cause: asError(cause),
      name: "AttesterSignerError",
    });
    this.problem = problem;
  }
}
