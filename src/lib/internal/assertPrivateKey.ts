import type { Hex } from "viem";
import { InvalidPrivateKeyError } from "../../errors/attestation";

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** Checks a secp256k1 private key (`0x` + 64 hex digits, 1 <= k < n) and returns it lower-cased. Never prints it. */
export function assertPrivateKey(value: unknown, source = "the privateKey parameter"): Hex {
  if (typeof value !== "string") throw new InvalidPrivateKeyError({ source, reason: "not a string" });
  const hex = value.startsWith("0x") || value.startsWith("0X") ? value.slice(2) : value;
  if (!/^[0-9a-fA-F]{64}$/.test(hex))
    throw new InvalidPrivateKeyError({
      source,
      reason: /^[0-9a-fA-F]*$/.test(hex) ? `${hex.length} hex digits instead of 64` : "not hexadecimal",
    });
  const k = BigInt(`0x${hex}`);
  if (k === 0n || k >= N) throw new InvalidPrivateKeyError({ source, reason: "out of range for secp256k1" });
  return `0x${hex.toLowerCase()}`;
}
