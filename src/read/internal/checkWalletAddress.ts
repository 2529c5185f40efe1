import { InvalidParameterError } from "../../errors/market";

/**
 * Throws {@link InvalidParameterError} (field `address`) unless `address` is 0x + 40 hex digits (any case); returns
 * it lower-cased, as owners are stored.
 */
export function checkWalletAddress(address: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) {
    throw new InvalidParameterError({ field: "address", value: address, expected: "a wallet address, 0x + 40 hex" });
  }
  return address.toLowerCase();
}
