import type { Address } from "viem";
import { InvalidExpectedAddressError } from "../../errors/attestation";

/** An address parameter: `0x` + 40 hex digits, any case, no checksum check. Returned lower-cased. */
export function parseExpectedAddress(parameter: string, value: unknown): Address {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(value))
    throw new InvalidExpectedAddressError({ parameter, value });
  return value.toLowerCase() as Address;
}
