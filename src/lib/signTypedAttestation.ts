import type { Hex } from "viem";
import { signTypedData } from "viem/accounts";
import type { InvalidPrivateKeyErrorType } from "../errors/attestation";
import { getAttestationTypedData, type GetAttestationTypedDataErrorType } from "./getAttestationTypedData";
import { assertPrivateKey } from "./internal/assertPrivateKey";
import type { AttestationFields, AttestationRegistry } from "./types";

export type SignTypedAttestationParameters = {
  /** The v1 attestation fields to sign in their v2 form. */
  attestation: AttestationFields;
  /** The registry the signature is bound to. */
  registry: AttestationRegistry;
  /** The attester's secp256k1 private key. */
  privateKey: Hex;
};

/** 65-byte `r‖s‖v` hex signature, low-s, v ∈ {27, 28}. */
export type SignTypedAttestationReturnType = Hex;

export type SignTypedAttestationErrorType = GetAttestationTypedDataErrorType | InvalidPrivateKeyErrorType;

/**
 * Signs the v2 (EIP-712) form of an attestation for a registry (viem `signTypedData`). The signature verifies with
 * {@link verifyTypedAttestation} and with the registry's `verify`.
 *
 * @param parameters - {@link SignTypedAttestationParameters}
 * @returns The signature. {@link SignTypedAttestationReturnType}
 *
 * @example
 * import { signTypedAttestation } from "@attestation-registry/sdk";
 *
 * const signature = await signTypedAttestation({
 *   attestation,
 *   registry: { chainId: 8453, address: registryAddress },
 *   privateKey: "0x…",
 * });
 */
export async function signTypedAttestation({
  attestation,
  registry,
  privateKey,
}: SignTypedAttestationParameters): Promise<SignTypedAttestationReturnType> {
  const typedData = getAttestationTypedData({ attestation, registry });
  return signTypedData({ ...typedData, privateKey: assertPrivateKey(privateKey) });
}
