import type { Hex } from "viem";
import { SiweSignatureMalformedError, type SiweSignatureMalformedErrorType } from "../errors/siwe";

/** secp256k1 group order n. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
/** floor(n / 2): the largest low-s value (EIP-2). */
const HALF_N = N >> 1n;
/** The 32-byte suffix of an ERC-6492 wrapped signature (a smart account that may not be deployed yet). */
const ERC6492_MAGIC = "6492649264926492649264926492649264926492649264926492649264926492";

export type ParseSiweSignatureParameters = {
  /** The signature the wallet returned from `personal_sign`: `0x` + hex. */
  signature: unknown;
};
export type ParseSiweSignatureReturnType = {
  /** 0 or 1. */
  yParity: 0 | 1;
  /** The same signature with v written as 27 or 28, lower case. */
  normalized: Hex;
};
export type ParseSiweSignatureErrorType = SiweSignatureMalformedErrorType;

/**
 * Reads a sign-in signature under the EOA-only rules: exactly 65 bytes `r‖s‖v`, `0x`-prefixed hex; v ∈ {27, 28} or
 * {0, 1} (what some wallets and hardware signers return); 1 ≤ r < n and 1 ≤ s ≤ n/2 (a high s is refused, as
 * attestation signatures and the registry refuse it: every wallet signs low-s). The 64-byte EIP-2098 compact form,
 * ERC-6492 wrapped signatures and any other length (ERC-1271 contract signatures) are refused.
 *
 * This is not the attestation parser (`src/lib/parseAttestationSignature.ts`, v ∈ {27, 28} only,
 * docs/library.md#signature).
 *
 * @param {@link ParseSiweSignatureParameters}
 * @returns the recovery bit and the signature with v ∈ {27, 28}. {@link ParseSiweSignatureReturnType}
 * @throws {@link SiweSignatureMalformedError} with the reason.
 * @example
 * import { parseSiweSignature } from "./src/auth/parseSiweSignature";
 * const { normalized } = parseSiweSignature({ signature: "0x8c46…2501" }); // v = 01 becomes 1c
 */
export function parseSiweSignature({ signature }: ParseSiweSignatureParameters): ParseSiweSignatureReturnType {
  if (typeof signature !== "string") throw malformed("it must be a 0x-prefixed hex string");
  if (!/^0x[0-9a-fA-F]*$/.test(signature)) throw malformed("it must be 0x followed by hexadecimal digits");
  const hex = signature.slice(2).toLowerCase();
  if (hex.length % 2 === 1) throw malformed(`odd number of hex digits (${hex.length})`);
  if (hex.length !== 130) {
    if (hex.length > 130 && hex.endsWith(ERC6492_MAGIC)) {
      throw malformed("an ERC-6492 smart-account signature; only externally owned accounts can sign in");
    }
    if (hex.length === 128) throw malformed("64 bytes: EIP-2098 compact signatures are not accepted, send 65 bytes");
    throw malformed(`${hex.length / 2} bytes instead of 65 (contract-account signatures are not accepted)`);
  }
  const v = parseInt(hex.slice(128), 16);
  if (v !== 0 && v !== 1 && v !== 27 && v !== 28) throw malformed(`v is ${v}; it must be 27, 28, 0 or 1`);
  const r = BigInt(`0x${hex.slice(0, 64)}`);
  const s = BigInt(`0x${hex.slice(64, 128)}`);
  if (r === 0n || r >= N) throw malformed("r is not in [1, n)");
  if (s === 0n) throw malformed("s is zero");
  if (s > HALF_N) throw malformed("s is in the upper half of the curve order (high-s)");
  const yParity = v === 0 || v === 27 ? 0 : 1;
  return { yParity, normalized: `0x${hex.slice(0, 128)}${yParity === 0 ? "1b" : "1c"}` };
}

function malformed(reason: string): SiweSignatureMalformedError {
  return new SiweSignatureMalformedError({ reason });
}
