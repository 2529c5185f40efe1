import type { Address } from "viem";
import { InvalidAttestationSignatureError, SignatureRecoveryError } from "../../errors/attestation";
import { parseAttestationSignature } from "../parseAttestationSignature";
import { recoverAddressFromHash } from "./recoverAddressFromHash";

/**
 * Recovers the signer of `hash` under the strict attestation signature rules, for the verifiers: a signature string
 * that breaks the rules or recovers to no key is "not valid" (`null`), while a missing or non-string signature is a
 * malformed attestation and throws.
 */
export function recoverSignerOrNull(hash: Uint8Array, signature: unknown): Address | null {
  try {
    return recoverAddressFromHash(hash, parseAttestationSignature({ signature }));
  } catch (error) {
    const notValid =
      (error instanceof InvalidAttestationSignatureError && typeof signature === "string") ||
      error instanceof SignatureRecoveryError;
    if (notValid) return null;
    throw error;
  }
}
