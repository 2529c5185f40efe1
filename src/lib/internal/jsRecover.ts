import { secp256k1 } from "@noble/curves/secp256k1";
import type { RecoverPublicKey } from "./nativeRecover";

/**
 * Pure-JS public-key recovery through @noble/curves (the library viem uses): the fallback wherever libsecp256k1 cannot
 * load, and the only backend in a browser bundle. Returns the 65-byte uncompressed key; throws when the signature
 * recovers to no key (r is not the x of a curve point, or the result is the point at infinity).
 */
export const recoverPublicKeyJs: RecoverPublicKey = (hash, signature) =>
  new secp256k1.Signature(signature.r, signature.s)
    .addRecoveryBit(signature.yParity)
    .recoverPublicKey(hash)
    .toRawBytes(false);
