import { BaseError } from "@attestation-registry/sdk/errors";

/** Errors of the ingestion leader's lease and of a pass that must stop (docs/operations.md#leadership-and-fencing). */

const DOCS = "docs/operations.md#leadership-and-fencing";

export type LeaseLostErrorType = LeaseLostError & { name: "LeaseLostError" };
/**
 * A pass's write transaction found that the lease it started under is no longer this process's (another process took
 * it over, or it expired): the transaction rolls back and commits nothing.
 */
export class LeaseLostError extends BaseError {
  constructor({ name, holder, epoch, reason }: { name: string; holder: string; epoch: number; reason: string }) {
    super(`The ${name} lease (epoch ${epoch}) is no longer held by ${holder}: ${reason}.`, {
      code: "LEASE_LOST",
      docsPath: DOCS,
      metaMessages: ["Nothing of this transaction was committed; the process leading now runs the next pass."],
      name: "LeaseLostError",
    });
  }
}

export type PassAbortedErrorType = PassAbortedError & { name: "PassAbortedError" };
/** The pass was asked to stop (the process is shutting down): it stops at its next step and commits nothing more. */
export class PassAbortedError extends BaseError {
  constructor() {
    super("The pass was stopped before it finished (the process is stopping).", {
      code: "PASS_ABORTED",
      docsPath: DOCS,
      name: "PassAbortedError",
    });
  }
}
