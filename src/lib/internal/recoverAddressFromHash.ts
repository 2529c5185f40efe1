import { secp256k1 } from "@noble/curves/secp256k1";
import { type Address, bytesToHex, checksumAddress, keccak256 } from "viem";
import { SignatureRecoveryError } from "../../errors/attestation";
import type { AttestationSignature } from "../types";

/**
 * Recovers the EIP-55 signer of a 32-byte hash, synchronously, straight through @noble/curves (the library viem
 * uses; viem's own `recoverAddress` is async and converts through hex several times).
 * The signature must already have passed `parseAttestationSignature`.
 */
export function recoverAddressFromHash(hash: Uint8Array, signature: AttestationSignature): Address {
  let publicKey: Uint8Array;
  try {
    publicKey = new secp256k1.Signature(signature.r, signature.s)
      .addRecoveryBit(signature.yParity)
      .recoverPublicKey(hash)
      .toRawBytes(false);
  } catch (error) {
    throw new SignatureRecoveryError({ cause: error instanceof Error ? error : undefined });
  }
  const digest = keccak256(publicKey.subarray(1), "bytes");
  return checksumAddress(bytesToHex(digest.subarray(12)));
}
