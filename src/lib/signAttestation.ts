import type { Hex } from "viem";
import { signMessage } from "viem/accounts";
import type { InvalidPrivateKeyErrorType } from "../errors/attestation";
import { createAttestationMessage, type CreateAttestationMessageErrorType } from "./createAttestationMessage";
import { assertPrivateKey } from "./internal/assertPrivateKey";
import type { AttestationFields } from "./types";

export type SignAttestationParameters = {
  /** The attestation to sign. Only the six signed fields are read. */
  attestation: AttestationFields;
  /** The attester's secp256k1 private key (`0x` + 64 hex digits). */
  privateKey: Hex;
};

/** 65-byte `r‖s‖v` hex signature, low-s, v ∈ {27, 28}. */
export type SignAttestationReturnType = Hex;

export type SignAttestationErrorType = CreateAttestationMessageErrorType | InvalidPrivateKeyErrorType;

/**
 * Signs the canonical v1 message with EIP-191 `personal_sign` (viem `signMessage`). Signatures are deterministic
 * (RFC 6979), low-s, with v ∈ {27, 28}, so they pass the strict verifier and the registry contract.
 *
 * @param parameters - {@link SignAttestationParameters}
 * @returns The signature. {@link SignAttestationReturnType}
 *
 * @example
 * import { signAttestation } from "@attestation-registry/sdk";
 *
 * const signature = await signAttestation({
 *   attestation: { chainId: 1, confidence: 0.85, expiry: 1767225600, horizon: 30, issuedAt: 1764547200,
 *     pool: "0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640" },
 *   privateKey: "0x…",
 * });
 */
export async function signAttestation({
  attestation,
  privateKey,
}: SignAttestationParameters): Promise<SignAttestationReturnType> {
  const message = createAttestationMessage({ attestation });
  return signMessage({ message, privateKey: assertPrivateKey(privateKey) });
}
