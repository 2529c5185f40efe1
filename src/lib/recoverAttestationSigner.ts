import type { Address } from "viem";
import type { InvalidAttestationSignatureErrorType, SignatureRecoveryErrorType } from "../errors/attestation";
import { createAttestationMessage, type CreateAttestationMessageErrorType } from "./createAttestationMessage";
import { hashPersonalMessage } from "./internal/hashPersonalMessage";
import { recoverAddressFromHash } from "./internal/recoverAddressFromHash";
import { parseAttestationSignature } from "./parseAttestationSignature";
import type { AttestationFields } from "./types";

export type RecoverAttestationSignerParameters = {
  /** The attestation. The canonical message is rebuilt from its six signed fields. */
  attestation: AttestationFields & { signature?: string | undefined };
  /** The v1 signature. Defaults to `attestation.signature`. */
  signature?: string | undefined;
};

/** The EIP-55 checksummed signer. */
export type RecoverAttestationSignerReturnType = Address;

export type RecoverAttestationSignerErrorType =
  CreateAttestationMessageErrorType | InvalidAttestationSignatureErrorType | SignatureRecoveryErrorType;

/**
 * Recovers the address that signed an attestation's canonical v1 message. The message is rebuilt from the fields
 * and the signature must pass the strict rules of {@link parseAttestationSignature}. This says who signed, not
 * whether that is the expected attester: use {@link verifyAttestation} for that.
 *
 * @param parameters - {@link RecoverAttestationSignerParameters}
 * @returns The signer. {@link RecoverAttestationSignerReturnType}
 *
 * @example
 * import { recoverAttestationSigner } from "@attestation-registry/sdk";
 *
 * const signer = recoverAttestationSigner({ attestation, signature: attestation.signature });
 */
export function recoverAttestationSigner({
  attestation,
  signature = attestation?.signature,
}: RecoverAttestationSignerParameters): RecoverAttestationSignerReturnType {
  const hash = hashPersonalMessage(createAttestationMessage({ attestation }));
  return recoverAddressFromHash(hash, parseAttestationSignature({ signature }));
}
