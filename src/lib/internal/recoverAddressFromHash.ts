import { type Address, bytesToHex, checksumAddress, keccak256 } from "viem";
import { SignatureRecoveryError } from "../../errors/attestation";
import type { AttestationSignature } from "../types";
import { activeBackend } from "./recoverBackend";

// The last key recovered and its address. A verifier checks one attester's signatures, so the key repeats: this
// saves the keccak of the key and the checksum on every verification after the first. A pure function's memo.
let lastPublicKey: Uint8Array | null = null;
let lastAddress: Address | null = null;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Recovers the EIP-55 signer of a 32-byte hash, synchronously, with the active backend: libsecp256k1 (N-API) where it
 * loads, else @noble/curves (see `recoverBackend.ts`). The signature must already have passed
 * `parseAttestationSignature`: the strict rules are ours and run before either backend.
 */
export function recoverAddressFromHash(hash: Uint8Array, signature: AttestationSignature): Address {
  const { recover } = activeBackend();
  let publicKey: Uint8Array;
  try {
    publicKey = recover(hash, signature);
  } catch (error) {
    throw new SignatureRecoveryError({ cause: error instanceof Error ? error : undefined });
  }
  if (lastPublicKey !== null && sameBytes(lastPublicKey, publicKey)) return lastAddress as Address;
  const digest = keccak256(publicKey.subarray(1), "bytes");
  const address = checksumAddress(bytesToHex(digest.subarray(12)));
  lastPublicKey = publicKey;
  lastAddress = address;
  return address;
}
