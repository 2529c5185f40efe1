import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Address, Hex } from "viem";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import type { ServiceConfig } from "../config/loadConfig";
import { ConfigError } from "../errors/config";

/** File name of the dev attester key inside DATA_DIR. */
export const DEV_KEY_FILE = "attester.key";

export type LoadAttesterKeyParameters = { source: ServiceConfig["attesterKey"] };
export type LoadAttesterKeyReturnType = {
  privateKey: Hex;
  address: Address;
  /** Where the key came from, for the log line (never the key itself). */
  origin: "ATTESTER_PRIVATE_KEY" | "ATTESTER_KEY_FILE" | "dev key created" | "dev key reused";
  file?: string;
};
export type LoadAttesterKeyErrorType = ConfigError;

const KEY = /^0x[0-9a-fA-F]{64}$/;

/**
 * Gets the attester key: from ATTESTER_PRIVATE_KEY, from ATTESTER_KEY_FILE, or the dev key kept in
 * `DATA_DIR/attester.key`, created once (mode 0600) and reused on every later start. The key is never logged.
 *
 * @param {@link LoadAttesterKeyParameters}
 * @returns the key, its address and where it came from.
 * @throws {@link ConfigError} when a key file is unreadable or does not hold `0x` + 64 hex digits.
 */
export function loadAttesterKey({ source }: LoadAttesterKeyParameters): LoadAttesterKeyReturnType {
  if ("privateKey" in source) {
    return {
      privateKey: source.privateKey,
      address: privateKeyToAddress(source.privateKey),
      origin: "ATTESTER_PRIVATE_KEY",
    };
  }
  if ("file" in source) {
    const privateKey = readKeyFile(source.file, "ATTESTER_KEY_FILE");
    return { privateKey, address: privateKeyToAddress(privateKey), origin: "ATTESTER_KEY_FILE", file: source.file };
  }
  const file = join(source.dataDir, DEV_KEY_FILE);
  mkdirSync(source.dataDir, { recursive: true, mode: 0o700 });
  try {
    const privateKey = generatePrivateKey();
    // "wx": never overwrite a key that exists (another start may have just created it).
    writeFileSync(file, `${privateKey}\n`, { mode: 0o600, flag: "wx" });
    return { privateKey, address: privateKeyToAddress(privateKey), origin: "dev key created", file };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
      throw new ConfigError({ variable: "DATA_DIR", message: `cannot write ${file}: ${(error as Error).message}` });
    }
  }
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const privateKey = readKeyFile(file, "DATA_DIR");
  return { privateKey, address: privateKeyToAddress(privateKey), origin: "dev key reused", file };
}

function readKeyFile(file: string, variable: string): Hex {
  let text: string;
  try {
    text = readFileSync(file, "utf8").trim();
  } catch (error) {
    throw new ConfigError({ variable, message: `cannot read the key file ${file}: ${(error as Error).message}` });
  }
  if (!KEY.test(text)) {
    throw new ConfigError({ variable, message: `${file} must hold one private key: 0x followed by 64 hex digits` });
  }
  return text.toLowerCase() as Hex;
}
