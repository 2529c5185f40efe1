import type { Hash } from "viem";

import { InvalidDigestError } from "../../errors/rpc";

const digestPattern = /^0x[0-9a-fA-F]{64}$/;

/** Throws `InvalidDigestError` unless `digest` is `0x` and 64 hex digits. */
export function assertDigest(digest: unknown): asserts digest is Hash {
  if (typeof digest !== "string" || !digestPattern.test(digest)) {
    throw new InvalidDigestError({ digest: typeof digest === "string" ? digest : String(digest) });
  }
}
