import { InvalidAttestationSignatureError, type InvalidAttestationSignatureErrorType } from "../errors/attestation";
import type { AttestationSignature } from "./types";

/** secp256k1 group order n. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
/** floor(n / 2): the largest low-s value (EIP-2, OpenZeppelin `ECDSA`). */
const HALF_N = N >> 1n;
const HEX_130 = /^[0-9a-fA-F]{130}$/;

export type ParseAttestationSignatureParameters = {
  /** The signature as published: hex, optional `0x`/`0X`, any case. */
  signature: unknown;
};

export type ParseAttestationSignatureReturnType = AttestationSignature;

export type ParseAttestationSignatureErrorType = InvalidAttestationSignatureErrorType;

/**
 * Parses an attestation signature under the strict rules shared by the library and the registry contract:
 * exactly 65 bytes `r‖s‖v` (no EIP-2098 compact form), `v` ∈ {27, 28}, 1 ≤ r < n and 1 ≤ s ≤ n/2 (high-s is
 * rejected, as on chain). viem's own parser accepts high-s and other `v` values: do not use it for attestations.
 * Wallet sign-in (SIWE) signatures follow other rules and must not go through this parser.
 *
 * @param parameters - {@link ParseAttestationSignatureParameters}
 * @returns r, s, v, yParity and the lower-case serialization. {@link ParseAttestationSignatureReturnType}
 * @throws {InvalidAttestationSignatureError} With the reason.
 *
 * @example
 * import { parseAttestationSignature } from "@attestation-registry/sdk";
 *
 * const { r, s, yParity } = parseAttestationSignature({ signature: "0xdbca79…1b" });
 */
export function parseAttestationSignature({
  signature,
}: ParseAttestationSignatureParameters): ParseAttestationSignatureReturnType {
  if (typeof signature !== "string")
    throw new InvalidAttestationSignatureError({
      signature,
      reason:
        signature === undefined
          ? "missing"
          : `must be a hex string, not ${signature === null ? "null" : typeof signature}`,
    });
  const hex = signature.startsWith("0x") || signature.startsWith("0X") ? signature.slice(2) : signature;
  if (!HEX_130.test(hex)) {
    if (/^[0-9a-fA-F]*$/.test(hex))
      throw new InvalidAttestationSignatureError({
        signature,
        reason:
          hex.length % 2 === 1
            ? `odd number of hex digits (${hex.length})`
            : `${hex.length / 2} bytes instead of 65${hex.length === 128 ? " (EIP-2098 compact signatures are not accepted)" : ""}`,
      });
    throw new InvalidAttestationSignatureError({ signature, reason: "not hexadecimal" });
  }
  const lower = hex.toLowerCase();
  const v = parseInt(lower.slice(128), 16);
  if (v !== 27 && v !== 28)
    throw new InvalidAttestationSignatureError({ signature, reason: `v is ${v}; only 27 and 28 are accepted` });
  const r = BigInt(`0x${lower.slice(0, 64)}`);
  const s = BigInt(`0x${lower.slice(64, 128)}`);
  if (r === 0n || r >= N) throw new InvalidAttestationSignatureError({ signature, reason: "r is not in [1, n)" });
  if (s === 0n) throw new InvalidAttestationSignatureError({ signature, reason: "s is zero" });
  if (s > HALF_N)
    throw new InvalidAttestationSignatureError({
      signature,
      reason: "s is in the upper half of the curve order (high-s)",
    });
  return { r, s, v, yParity: v === 27 ? 0 : 1, serialized: `0x${lower}` };
}
