import { randomBytes } from "node:crypto";

export type GenerateApiKeyReturnType = string;
export type GenerateApiKeyErrorType = never;

/**
 * A new API key: `ak_` and 32 random bytes (`crypto.randomBytes`) in base64url, 46 characters. It fits the rules
 * `API_KEYS` keys follow (32+ characters a Bearer token can carry).
 *
 * @returns the key. Show it once; store only {@link hashApiKey}'s digest.
 * @example
 * import { generateApiKey } from "./src/write/generateApiKey";
 * const key = generateApiKey(); // "ak_Jx3…"
 */
export function generateApiKey(): GenerateApiKeyReturnType {
  return `ak_${randomBytes(32).toString("base64url")}`;
}
