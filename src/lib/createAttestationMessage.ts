import type { NormalizeAttestationErrorType } from "./normalizeAttestation";
import { normalizeAttestation } from "./normalizeAttestation";
import type { AttestationFields } from "./types";

export type CreateAttestationMessageParameters = {
  /** The attestation. Only chainId, confidence, expiry, horizon, issuedAt and pool are read. */
  attestation: AttestationFields;
};

/** The canonical v1 message: `{"chainId":"…","confidence":"…","expiresAt":"…","horizonDays":"…","issuedAt":"…","pool":"…","v":"1"}`. */
export type CreateAttestationMessageReturnType = string;

export type CreateAttestationMessageErrorType = NormalizeAttestationErrorType;

/**
 * Builds the canonical v1 message that the attester signs with EIP-191 `personal_sign`: a JSON object with exactly
 * seven string values in alphabetical key order and no whitespace. It is always rebuilt from the fields, never
 * taken from a message supplied with the payload.
 *
 * @param parameters - {@link CreateAttestationMessageParameters}
 * @returns The canonical message. {@link CreateAttestationMessageReturnType}
 * @throws A typed error naming the bad field and the fix ({@link CreateAttestationMessageErrorType}).
 *
 * @example
 * import { createAttestationMessage } from "@attestation-registry/sdk";
 *
 * createAttestationMessage({
 *   attestation: { chainId: 1, confidence: 0.85, expiry: 1767225600, horizon: 30, issuedAt: 1764547200,
 *     pool: "0x88e6A0c2dDD26FEEb64F039a2c41296fcB3f5640" },
 * });
 * // '{"chainId":"1","confidence":"0.85","expiresAt":"1767225600","horizonDays":"30","issuedAt":"1764547200","pool":"0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640","v":"1"}'
 */
export function createAttestationMessage({
  attestation,
}: CreateAttestationMessageParameters): CreateAttestationMessageReturnType {
  const n = normalizeAttestation({ attestation });
  // Every value is digits, a dot or lower-case hex: nothing needs JSON escaping.
  return `{"chainId":"${n.chainId}","confidence":"${n.confidence}","expiresAt":"${n.expiresAt}","horizonDays":"${n.horizonDays}","issuedAt":"${n.issuedAt}","pool":"${n.pool}","v":"1"}`;
}
