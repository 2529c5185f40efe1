import { type Hex, hashTypedData } from "viem";
import {
  getAttestationTypedData,
  type GetAttestationTypedDataErrorType,
  type GetAttestationTypedDataParameters,
} from "./getAttestationTypedData";

export type HashTypedAttestationParameters = GetAttestationTypedDataParameters;

/** The EIP-712 digest, equal to the registry's `hashAttestation`. */
export type HashTypedAttestationReturnType = Hex;

export type HashTypedAttestationErrorType = GetAttestationTypedDataErrorType;

/**
 * The v2 digest of an attestation under a registry's EIP-712 domain. It equals the contract's
 * `hashAttestation(a)` and is the key under which an attester revokes the claim.
 *
 * @param parameters - {@link HashTypedAttestationParameters}
 * @returns The digest. {@link HashTypedAttestationReturnType}
 *
 * @example
 * import { hashTypedAttestation } from "@attestation-registry/sdk";
 *
 * const digest = hashTypedAttestation({ attestation, registry: { chainId: 8453, address: registryAddress } });
 */
export function hashTypedAttestation({
  attestation,
  registry,
}: HashTypedAttestationParameters): HashTypedAttestationReturnType {
  return hashTypedData(getAttestationTypedData({ attestation, registry }));
}
