import { type Address, hashTypedData, hexToBytes } from "viem";
import type { InvalidAttestationSignatureErrorType, SignatureRecoveryErrorType } from "../errors/attestation";
import { getAttestationTypedData, type GetAttestationTypedDataErrorType } from "./getAttestationTypedData";
import { recoverAddressFromHash } from "./internal/recoverAddressFromHash";
import { parseAttestationSignature } from "./parseAttestationSignature";
import type { AttestationFields, AttestationRegistry } from "./types";

export type RecoverTypedAttestationSignerParameters = {
  /** The v1 attestation fields (the v2 message is derived from them). */
  attestation: AttestationFields;
  /** The registry the signature is bound to. */
  registry: AttestationRegistry;
  /** The v2 signature. */
  signature: string;
};

/** The EIP-55 checksummed signer. */
export type RecoverTypedAttestationSignerReturnType = Address;

export type RecoverTypedAttestationSignerErrorType =
  GetAttestationTypedDataErrorType | InvalidAttestationSignatureErrorType | SignatureRecoveryErrorType;

/**
 * Recovers the signer of a v2 (EIP-712) attestation signature, under the same strict signature rules as v1 (65
 * bytes, v ∈ {27, 28}, low-s).
 *
 * @param parameters - {@link RecoverTypedAttestationSignerParameters}
 * @returns The signer. {@link RecoverTypedAttestationSignerReturnType}
 *
 * @example
 * import { recoverTypedAttestationSigner } from "@attestation-registry/sdk";
 *
 * const signer = recoverTypedAttestationSigner({
 *   attestation,
 *   registry: { chainId: 8453, address: registryAddress },
 *   signature: attestation.eip712.signature,
 * });
 */
export function recoverTypedAttestationSigner({
  attestation,
  registry,
  signature,
}: RecoverTypedAttestationSignerParameters): RecoverTypedAttestationSignerReturnType {
  const digest = hashTypedData(getAttestationTypedData({ attestation, registry }));
  return recoverAddressFromHash(hexToBytes(digest), parseAttestationSignature({ signature }));
}
