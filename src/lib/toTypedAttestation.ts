import { TypedAttestationRangeError, type TypedAttestationRangeErrorType } from "../errors/attestation";
import { normalizeAttestation, type NormalizeAttestationErrorType } from "./normalizeAttestation";
import type { AttestationFields, TypedAttestation } from "./types";

const UINT16_MAX = 0xffffn;
const UINT32_MAX = 0xffffffff;

export type ToTypedAttestationParameters = {
  /** The v1 attestation fields. */
  attestation: AttestationFields;
};

export type ToTypedAttestationReturnType = TypedAttestation;

export type ToTypedAttestationErrorType = NormalizeAttestationErrorType | TypedAttestationRangeErrorType;

/**
 * Converts v1 fields to the v2 (EIP-712) message: `confidence` becomes the integer in hundredths behind the v1
 * two-digit string (`0.855` → `"0.86"` → `86`), `expiresAt` is `expiry`, `horizonDays` is `horizon`, and `pool` is
 * lower-cased. Values are first checked by the v1 rules; a value that does not fit its v2 type (confidence above
 * 655.35, horizon above 2^32 − 1) throws.
 *
 * @param parameters - {@link ToTypedAttestationParameters}
 * @returns The v2 message. {@link ToTypedAttestationReturnType}
 *
 * @example
 * import { toTypedAttestation } from "@attestation-registry/sdk";
 *
 * toTypedAttestation({
 *   attestation: { chainId: 1, confidence: 0.85, expiry: 1767225600, horizon: 30, issuedAt: 1764547200,
 *     pool: "0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640" },
 * });
 * // { chainId: 1n, pool: "0x88e6…5640", confidence: 85, horizonDays: 30, issuedAt: 1764547200n, expiresAt: 1767225600n }
 */
export function toTypedAttestation({ attestation }: ToTypedAttestationParameters): ToTypedAttestationReturnType {
  const n = normalizeAttestation({ attestation });
  if (n.confidenceHundredths > UINT16_MAX)
    throw new TypedAttestationRangeError({
      field: "confidence",
      value: attestation.confidence,
      type: "uint16 hundredths",
      reason: "at most 655.35",
    });
  if (n.horizonDays > UINT32_MAX)
    throw new TypedAttestationRangeError({ field: "horizon", value: attestation.horizon, type: "uint32" });
  return {
    chainId: BigInt(n.chainId),
    pool: n.pool,
    confidence: Number(n.confidenceHundredths),
    horizonDays: n.horizonDays,
    issuedAt: BigInt(n.issuedAt),
    expiresAt: BigInt(n.expiresAt),
  };
}
