import type { Address } from "viem";
import { verifyAttestation, type VerifyAttestationReturnType } from "@attestation-registry/sdk";
import { BaseError } from "@attestation-registry/sdk/errors";
import { InvalidAttestationError } from "../errors/verify";

export type VerifyAgainstAttesterParameters = {
  /** The attestation as published (`GET /api/v1/pool/{pool}`); its own `attester` field is ignored. */
  attestation: unknown;
  /** The service's own attester (`getAttesterInfo(…).attester`): the expected signer. */
  attester: Address;
};
export type VerifyAgainstAttesterReturnType = VerifyAttestationReturnType;
export type VerifyAgainstAttesterErrorType = InvalidAttestationError;

/**
 * Checks an attestation a caller hands in against the service's attester, with the library's offline verification
 * (the same recovery a client runs itself: a convenience, not an authority). A malformed attestation (not an object,
 * a signed field missing or invalid, no signature) is `INVALID_ATTESTATION` naming the field; a signature that breaks the strict
 * rules or recovers to another key is no error: `valid: false`. `expired` is judged on the wall clock. The route
 * `POST /api/v1/verify` and the MCP tool `verify_attestation` both call it.
 *
 * @param {@link VerifyAgainstAttesterParameters}
 * @returns `{ valid, attester, expired, canonical }` ({@link VerifyAttestationReturnType}).
 * @throws {@link InvalidAttestationError}.
 * @example
 * import { verifyAgainstAttester } from "./read/verifyAgainstAttester";
 * const { valid, expired } = verifyAgainstAttester({ attestation, attester: attesterInfo.attester });
 */
export function verifyAgainstAttester({
  attestation,
  attester,
}: VerifyAgainstAttesterParameters): VerifyAgainstAttesterReturnType {
  try {
    return verifyAttestation({
      attestation: attestation as Parameters<typeof verifyAttestation>[0]["attestation"],
      address: attester,
    });
  } catch (error) {
    // Only the attestation's own faults are the caller's (ATTESTATION_*); a recovery backend that cannot load
    // (VERIFY_BACKEND_*) is the service's problem and stays an internal error.
    if (!(error instanceof BaseError) || !error.code.startsWith("ATTESTATION_")) throw error;
    const field = (error as { field?: unknown }).field;
    throw new InvalidAttestationError({
      message: error.shortMessage,
      field: typeof field === "string" ? field : undefined,
      cause: error,
    });
  }
}
