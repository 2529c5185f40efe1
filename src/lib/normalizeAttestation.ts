import {
  AttestationNotObjectError,
  type AttestationNotObjectErrorType,
  type InvalidConfidenceErrorType,
  type InvalidIntegerFieldErrorType,
  type InvalidPoolAddressErrorType,
  MissingAttestationFieldError,
  type MissingAttestationFieldErrorType,
} from "../errors/attestation";
import { formatConfidence } from "./formatConfidence";
import { parseIntegerField } from "./internal/parseIntegerField";
import { parsePool } from "./internal/parsePool";
import type { NormalizedAttestation } from "./types";

export type NormalizeAttestationParameters = {
  /** The attestation (any value: it is checked field by field). Unsigned fields are ignored. */
  attestation: unknown;
};

export type NormalizeAttestationReturnType = NormalizedAttestation;

export type NormalizeAttestationErrorType =
  | AttestationNotObjectErrorType
  | MissingAttestationFieldErrorType
  | InvalidIntegerFieldErrorType
  | InvalidConfidenceErrorType
  | InvalidPoolAddressErrorType;

/**
 * Checks the six signed fields of an attestation and returns them in their signed form. Never coerces: a value
 * that breaks a rule throws an error naming the field and the fix. Fields are checked in the canonical order
 * (chainId, confidence, expiry, horizon, issuedAt, pool), so the first bad one is reported.
 *
 * @param parameters - {@link NormalizeAttestationParameters}
 * @returns The signed values. {@link NormalizeAttestationReturnType}
 *
 * @example
 * import { normalizeAttestation } from "@attestation-registry/sdk";
 *
 * normalizeAttestation({
 *   attestation: { chainId: "8453", confidence: 0.855, expiry: 1767225600, horizon: 30, issuedAt: 1764547200,
 *     pool: "0x88e6A0c2dDD26FEEb64F039a2c41296fcB3f5640" },
 * });
 * // { chainId: 8453, confidence: "0.86", confidenceHundredths: 86n, expiresAt: 1767225600, horizonDays: 30,
 * //   issuedAt: 1764547200, pool: "0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640" }
 */
export function normalizeAttestation({ attestation }: NormalizeAttestationParameters): NormalizeAttestationReturnType {
  if (typeof attestation !== "object" || attestation === null || Array.isArray(attestation))
    throw new AttestationNotObjectError({ value: attestation });
  const a = attestation as Record<string, unknown>;
  const chainId = parseIntegerField("chainId", a.chainId);
  if (a.confidence === undefined) throw new MissingAttestationFieldError({ field: "confidence" });
  const { text, hundredths } = formatConfidence({ confidence: a.confidence as number });
  return {
    chainId,
    confidence: text,
    confidenceHundredths: hundredths,
    expiresAt: parseIntegerField("expiry", a.expiry),
    horizonDays: parseIntegerField("horizon", a.horizon),
    issuedAt: parseIntegerField("issuedAt", a.issuedAt),
    pool: parsePool(a.pool),
  };
}
