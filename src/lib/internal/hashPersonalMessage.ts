import { keccak256 } from "viem";

const encoder = new TextEncoder();

/** EIP-191 version 0x45 hash (`personal_sign`) of a string, as bytes. Same result as viem `hashMessage`. */
export function hashPersonalMessage(message: string): Uint8Array {
  const body = encoder.encode(message);
  const prefix = encoder.encode(`\x19Ethereum Signed Message:\n${body.length}`);
  const bytes = new Uint8Array(prefix.length + body.length);
  bytes.set(prefix);
  bytes.set(body, prefix.length);
  return keccak256(bytes, "bytes");
}
