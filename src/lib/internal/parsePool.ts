import type { Address } from "viem";
import { InvalidPoolAddressError, MissingAttestationFieldError } from "../../errors/attestation";

const POOL = /^0x[0-9a-fA-F]{40}$/;

/** `0x` + 40 hex digits, any case, no checksum check; returned lower-cased. */
export function parsePool(value: unknown): Address {
  if (value === undefined) throw new MissingAttestationFieldError({ field: "pool" });
  if (typeof value !== "string")
    throw new InvalidPoolAddressError({
      value,
      reason: `must be a string, not ${value === null ? "null" : typeof value}`,
    });
  if (!POOL.test(value))
    throw new InvalidPoolAddressError({ value, reason: 'not "0x" followed by 40 hexadecimal digits' });
  return value.toLowerCase() as Address;
}
