import { bytesToHex, type Hex } from "viem";
import { createAttestationMessage, type CreateAttestationMessageErrorType } from "./createAttestationMessage";
import { hashPersonalMessage } from "./internal/hashPersonalMessage";
import type { AttestationFields } from "./types";

export type HashAttestationParameters = {
  /** The attestation. Only the six signed fields are read. */
  attestation: AttestationFields;
};

/** The 32-byte EIP-191 digest that the v1 signature signs. */
export type HashAttestationReturnType = Hex;

export type HashAttestationErrorType = CreateAttestationMessageErrorType;

/**
 * The v1 digest: `keccak256("\x19Ethereum Signed Message:\n" + length + canonicalMessage)` (what viem
 * `hashMessage` and `personal_sign` compute over the canonical message).
 *
 * @param parameters - {@link HashAttestationParameters}
 * @returns The digest. {@link HashAttestationReturnType}
 *
 * @example
 * import { hashAttestation } from "@attestation-registry/sdk";
 *
 * const digest = hashAttestation({
 *   attestation: { chainId: 1, confidence: 0.85, expiry: 1767225600, horizon: 30, issuedAt: 1764547200,
 *     pool: "0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640" },
 * });
 */
export function hashAttestation({ attestation }: HashAttestationParameters): HashAttestationReturnType {
  return bytesToHex(hashPersonalMessage(createAttestationMessage({ attestation })));
}
