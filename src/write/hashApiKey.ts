import { createHash } from "node:crypto";

export type HashApiKeyParameters = { key: string };
/** SHA-256 of the key's UTF-8 bytes, 64 lower-case hex digits: what the store keeps instead of the key. */
export type HashApiKeyReturnType = string;
export type HashApiKeyErrorType = never;

/**
 * The SHA-256 of an API key (hex). The store keeps only this; authentication hashes the presented key and compares.
 * A key is 32+ characters of high entropy, so a plain, unsalted hash is enough (nothing to brute-force).
 *
 * @param {@link HashApiKeyParameters}
 * @returns the hex digest.
 * @example
 * import { hashApiKey } from "./src/write/hashApiKey";
 * hashApiKey({ key: "ak_…" }); // "3f0c…" (64 hex digits)
 */
export function hashApiKey({ key }: HashApiKeyParameters): HashApiKeyReturnType {
  return createHash("sha256").update(key, "utf8").digest("hex");
}
