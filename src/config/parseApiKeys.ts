import { ConfigError } from "../errors/config";

/** The shortest API key accepted (`API_KEYS`, and every key a wallet creates). */
export const API_KEY_MIN_LENGTH = 32;
/** The longest API key accepted. */
export const API_KEY_MAX_LENGTH = 512;
/** What a Bearer token may hold (RFC 6750 `b64token`): a key outside it could not be sent. */
export const API_KEY_PATTERN = /^[A-Za-z0-9\-._~+/]+=*$/;

export type ParseApiKeysParameters = {
  /** The value of `API_KEYS`: keys separated by commas (spaces around each are ignored); unset or empty = none. */
  value: string | undefined;
};
export type ParseApiKeysReturnType = string[];
export type ParseApiKeysErrorType = ConfigError;

/**
 * Parses `API_KEYS`. Each key must be 32 to 512 characters from `A-Z a-z 0-9 - . _ ~ + /` (then `=` padding). A key
 * given twice counts once. Errors name the variable and the key's position, never the key.
 *
 * @param {@link ParseApiKeysParameters}
 * @returns the keys, in the order given.
 * @throws {@link ConfigError} (`API_KEYS: …`) for an empty entry, a short or long key, or a character outside
 * the set.
 * @example
 * import { parseApiKeys } from "./src/config/parseApiKeys";
 * parseApiKeys({ value: process.env.API_KEYS });
 */
export function parseApiKeys({ value }: ParseApiKeysParameters): ParseApiKeysReturnType {
  if (value === undefined || value.trim() === "") return [];
  const entries = value.split(",").map((entry) => entry.trim());
  const keys: string[] = [];
  entries.forEach((key, index) => {
    const which = `key ${index + 1} of ${entries.length}`;
    const fail = (message: string) => {
      throw new ConfigError({ variable: "API_KEYS", message: `${which} ${message}` });
    };
    if (key === "") fail("is empty (remove the extra comma)");
    if (key.length < API_KEY_MIN_LENGTH) {
      fail(`is ${key.length} characters; each key must be at least ${API_KEY_MIN_LENGTH} (e.g. openssl rand -hex 32)`);
    }
    if (key.length > API_KEY_MAX_LENGTH) fail(`is longer than ${API_KEY_MAX_LENGTH} characters`);
    if (!API_KEY_PATTERN.test(key)) {
      fail("has a character a Bearer token cannot carry; use A-Z a-z 0-9 - . _ ~ + / (and = at the end)");
    }
    if (!keys.includes(key)) keys.push(key);
  });
  return keys;
}
