import {
  AttestationNotObjectError,
  type AttestationNotObjectErrorType,
  TypedAttestationRangeError,
  type TypedAttestationRangeErrorType,
} from "../errors/attestation";
import { parsePool } from "./internal/parsePool";
import { parseUint } from "./internal/parseUint";
import type { AttestationFields } from "./types";

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A v2 message with integers as bigints, safe-integer numbers or decimal strings (as the API publishes them). */
export type TypedAttestationInput = {
  chainId: bigint | number | string;
  pool: string;
  confidence: bigint | number | string;
  horizonDays: bigint | number | string;
  issuedAt: bigint | number | string;
  expiresAt: bigint | number | string;
};

export type FromTypedAttestationParameters = {
  /** The v2 (EIP-712) message. */
  message: TypedAttestationInput;
};

export type FromTypedAttestationReturnType = AttestationFields;

export type FromTypedAttestationErrorType = AttestationNotObjectErrorType | TypedAttestationRangeErrorType;

/**
 * Converts a v2 (EIP-712) message back to v1 fields: `confidence` hundredths become a number whose v1 rendering is
 * exactly those hundredths (`86` → `0.86` → `"0.86"`), `expiresAt` becomes `expiry`, `horizonDays` becomes
 * `horizon`. Each value must fit its Solidity type, and integers must be safe integers to exist in v1.
 *
 * @param parameters - {@link FromTypedAttestationParameters}
 * @returns The v1 fields (no signature). {@link FromTypedAttestationReturnType}
 *
 * @example
 * import { fromTypedAttestation } from "@attestation-registry/sdk";
 *
 * fromTypedAttestation({ message: attestation.eip712.message });
 * // { chainId: 1, confidence: 0.85, expiry: 1767225600, horizon: 30, issuedAt: 1764547200, pool: "0x88e6…5640" }
 */
export function fromTypedAttestation({ message }: FromTypedAttestationParameters): FromTypedAttestationReturnType {
  if (typeof message !== "object" || message === null || Array.isArray(message))
    throw new AttestationNotObjectError({ value: message });
  const safe = (field: string, value: unknown, bits: number): number => {
    const n = parseUint(field, value, bits);
    if (n > MAX_SAFE)
      throw new TypedAttestationRangeError({ field, value, type: "a v1 integer", reason: "larger than 2^53 - 1" });
    return Number(n);
  };
  return {
    chainId: safe("chainId", message.chainId, 256),
    confidence: safe("confidence", message.confidence, 16) / 100,
    expiry: safe("expiresAt", message.expiresAt, 64),
    horizon: safe("horizonDays", message.horizonDays, 32),
    issuedAt: safe("issuedAt", message.issuedAt, 64),
    pool: parsePool(message.pool),
  };
}
