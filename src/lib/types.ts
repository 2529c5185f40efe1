import type { Address, Hex } from "viem";

/** Integer fields arrive as JSON numbers or canonical decimal strings. */
export type IntegerInput = number | string;

/**
 * The signed fields of a v1 attestation, as `GET /api/v1/pool/{pool}` returns them.
 * Only these six fields (plus the constant `v`) are covered by the signature.
 */
export type AttestationFields = {
  /** The pool's chain. Signed as a decimal string. */
  chainId: IntegerInput;
  /** A JSON number in [0, 1] as issued; signed with exactly two fraction digits. */
  confidence: number;
  /** Unix seconds. Signed under the key `expiresAt`. */
  expiry: IntegerInput;
  /** Days. Signed under the key `horizonDays`. */
  horizon: IntegerInput;
  /** Unix seconds. */
  issuedAt: IntegerInput;
  /** `0x` + 40 hex digits, any case. Signed lower-cased. */
  pool: string;
};

/** The v2 block the service adds once a registry is configured (integers as decimal strings). */
export type AttestationEip712 = {
  domain: { name: string; version: string; chainId: string | number; verifyingContract: string };
  types: Record<string, readonly { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, string | number>;
  signature: string;
};

/**
 * A whole attestation as published. `signature` is the v1 (EIP-191) signature. `attester` is informational and
 * never used as the expected signer. `symbol`, `protocol` and `outcome` are not signed.
 */
export type Attestation = AttestationFields & {
  signature?: string | undefined;
  attester?: string | undefined;
  symbol?: unknown;
  protocol?: unknown;
  outcome?: unknown;
  eip712?: AttestationEip712 | undefined;
};

/** The normalized signed values of a v1 attestation. */
export type NormalizedAttestation = {
  chainId: number;
  /** The two-digit decimal string, e.g. `"0.85"`. */
  confidence: string;
  /** The integer behind `confidence`, in hundredths (`"0.85"` -> `85n`). */
  confidenceHundredths: bigint;
  expiresAt: number;
  horizonDays: number;
  issuedAt: number;
  /** Lower case. */
  pool: Address;
};

/** The v2 (EIP-712) message, with values as viem expects them. */
export type TypedAttestation = {
  chainId: bigint;
  pool: Address;
  confidence: number;
  horizonDays: number;
  issuedAt: bigint;
  expiresAt: bigint;
};

/** The registry an EIP-712 attestation is bound to. */
export type AttestationRegistry = {
  /** The chain the registry is deployed on (may differ from the pool's chain). */
  chainId: number | bigint | string;
  /** The registry contract. */
  address: string;
};

/** A signature that passed the strict attestation rules. */
export type AttestationSignature = {
  r: bigint;
  s: bigint;
  v: 27 | 28;
  yParity: 0 | 1;
  /** Lower-case `0x`-prefixed 65-byte hex. */
  serialized: Hex;
};
