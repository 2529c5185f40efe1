import {
  concat,
  encodeAbiParameters,
  domainSeparator as viemDomainSeparator,
  hashTypedData,
  keccak256,
  toHex,
  type Address,
  type Hex,
  type TypedDataDomain,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";

/** The v2 attestation as the contract's `Attestation` struct (also what typechain accepts). */
export type AttestationStruct = {
  chainId: bigint;
  pool: Address;
  confidence: number;
  horizonDays: number;
  issuedAt: bigint;
  expiresAt: bigint;
};

/** The EIP-712 type of an attestation, without `EIP712Domain` (as viem and ethers expect). */
export const ATTESTATION_TYPES = {
  Attestation: [
    { name: "chainId", type: "uint256" },
    { name: "pool", type: "address" },
    { name: "confidence", type: "uint16" },
    { name: "horizonDays", type: "uint32" },
    { name: "issuedAt", type: "uint64" },
    { name: "expiresAt", type: "uint64" },
  ],
} as const;

/** The registry's EIP-712 domain: bound to the registry's chain and address. */
export function registryDomain(chainId: bigint | number, verifyingContract: Address): TypedDataDomain {
  return { name: "AttestationRegistry", version: "1", chainId: BigInt(chainId), verifyingContract };
}

/** The EIP-712 digest of `message` under `domain`, computed off chain with viem. */
export function attestationDigest(domain: TypedDataDomain, message: AttestationStruct): Hex {
  return hashTypedData({ domain, types: ATTESTATION_TYPES, primaryType: "Attestation", message });
}

/** Signs `message` under `domain` with viem's local account: a 65-byte low-s `r || s || v` signature, v in {27, 28}. */
export async function signAttestation(
  privateKey: Hex,
  domain: TypedDataDomain,
  message: AttestationStruct,
): Promise<Hex> {
  return privateKeyToAccount(privateKey).signTypedData({
    domain,
    types: ATTESTATION_TYPES,
    primaryType: "Attestation",
    message,
  });
}

/** secp256k1 group order n. */
export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

function hex32(value: bigint): string {
  return value.toString(16).padStart(64, "0");
}

/** Splits a 65-byte signature into r, s and v. */
export function splitSignature(signature: Hex): { r: bigint; s: bigint; v: number } {
  if (signature.length !== 132)
    throw new Error(`expected a 65-byte signature, got ${(signature.length - 2) / 2} bytes`);
  return {
    r: BigInt(`0x${signature.slice(2, 66)}`),
    s: BigInt(`0x${signature.slice(66, 130)}`),
    v: Number.parseInt(signature.slice(130, 132), 16),
  };
}

/** Joins r, s and v into a 65-byte signature. */
export function joinSignature({ r, s, v }: { r: bigint; s: bigint; v: number }): Hex {
  return `0x${hex32(r)}${hex32(s)}${v.toString(16).padStart(2, "0")}`;
}

/** The malleable twin of a signature: s' = n - s and v flipped. It recovers the same key but is high-s. */
export function toHighS(signature: Hex): Hex {
  const { r, s, v } = splitSignature(signature);
  return joinSignature({ r, s: SECP256K1_N - s, v: v === 27 ? 28 : 27 });
}

/** The EIP-2098 compact (64-byte) form of a signature. */
export function toCompact(signature: Hex): Hex {
  const { r, s, v } = splitSignature(signature);
  const yParityAndS = (BigInt(v - 27) << 255n) | s;
  return `0x${hex32(r)}${hex32(yParityAndS)}`;
}

/** The attestation's EIP-712 type string, as in `contracts/Common.sol`. */
export const ATTESTATION_TYPE_STRING =
  "Attestation(uint256 chainId,address pool,uint16 confidence,uint32 horizonDays,uint64 issuedAt,uint64 expiresAt)";

/** The attestation's six struct words in ABI order, as plain 256-bit numbers. */
export function attestationWords(a: AttestationStruct): bigint[] {
  return [a.chainId, BigInt(a.pool), BigInt(a.confidence), BigInt(a.horizonDays), a.issuedAt, a.expiresAt];
}

/**
 * The EIP-712 digest of six RAW struct words (any 256-bit values, also out of range for their field types), the way
 * a key that signs raw digests would compute it: `keccak256(0x1901 || domainSeparator || keccak256(typehash || words))`.
 */
export function rawWordsDigest(domain: TypedDataDomain, words: readonly bigint[]): Hex {
  const structHash = keccak256(
    encodeAbiParameters(
      [{ type: "bytes32" }, ...words.map(() => ({ type: "uint256" }))],
      [keccak256(toHex(ATTESTATION_TYPE_STRING)), ...words],
    ),
  );
  const domainSeparator = viemDomainSeparator({ domain });
  return keccak256(concat(["0x1901", domainSeparator, structHash]));
}

/** Replaces ABI word `index` of the arguments in `calldata` (after the 4-byte selector) with `value`. */
export function replaceArgumentWord(calldata: Hex, index: number, value: bigint): Hex {
  const start = 2 + 8 + 64 * index;
  return `${calldata.slice(0, start)}${hex32(value)}${calldata.slice(start + 64)}` as Hex;
}
