import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { API_KEY_MAX_LENGTH, API_KEY_MIN_LENGTH, API_KEY_PATTERN } from "../config/parseApiKeys";
import { ConfigError } from "../errors/config";
import { generateApiKey } from "../write/generateApiKey";

/** File name of the demo API key inside DATA_DIR. */
export const DEMO_API_KEY_FILE = "api.key";

export type LoadDemoApiKeyParameters = { dataDir: string };
export type LoadDemoApiKeyReturnType = {
  /** The key (secret: never log it; print `$(cat <file>)` instead). */
  key: string;
  file: string;
  origin: "created" | "reused";
};
export type LoadDemoApiKeyErrorType = ConfigError;

/**
 * The demo's API key, kept in `DATA_DIR/api.key`: created once (`crypto.randomBytes`, mode 0600, never overwritten)
 * and reused on every later start, like the dev attester key. Only the demo registers it; the configured mode uses
 * `API_KEYS` alone.
 *
 * @param {@link LoadDemoApiKeyParameters}
 * @returns the key, its file and whether it was created now.
 * @throws {@link ConfigError} (`DATA_DIR`) when the file cannot be written or read, or holds no valid key.
 */
export function loadDemoApiKey({ dataDir }: LoadDemoApiKeyParameters): LoadDemoApiKeyReturnType {
  const file = join(dataDir, DEMO_API_KEY_FILE);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    const key = generateApiKey();
    // "wx": never overwrite a key that exists (another start may have just created it).
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: "wx" });
    return { key, file, origin: "created" };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
      throw new ConfigError({ variable: "DATA_DIR", message: `cannot write ${file}: ${(error as Error).message}` });
    }
  }
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  let key: string;
  try {
    key = readFileSync(file, "utf8").trim();
  } catch (error) {
    throw new ConfigError({ variable: "DATA_DIR", message: `cannot read ${file}: ${(error as Error).message}` });
  }
  if (key.length < API_KEY_MIN_LENGTH || key.length > API_KEY_MAX_LENGTH || !API_KEY_PATTERN.test(key)) {
    throw new ConfigError({
      variable: "DATA_DIR",
      message: `${file} must hold one API key of ${API_KEY_MIN_LENGTH}+ characters; delete it to get a new one`,
    });
  }
  return { key, file, origin: "reused" };
}
