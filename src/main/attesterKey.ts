import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Address, Hex } from "viem";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { createJsonRpcSigner, createLocalSigner, type AttestationSigner } from "../attest/signer";
import type { ServiceConfig } from "../config/loadConfig";
import { ConfigError } from "../errors/config";
import { redactRpcUrl } from "../errors/utils";

/** File name of the dev attester key inside DATA_DIR. */
export const DEV_KEY_FILE = "attester.key";

export type LoadAttesterKeyParameters = {
  source: ServiceConfig["attesterKey"];
  /** `ATTESTER_SIGNER_URL` + `ATTESTER_ADDRESS`: when set, no key is read or created; signing goes to the signer. */
  signer?: ServiceConfig["attesterSigner"];
  /** The demo signs with its own dev key (its local chains register it), so it refuses a signer. Default configured. */
  mode?: ServiceConfig["mode"];
};
export type LoadAttesterKeyReturnType = {
  /** What issuance signs with. */
  signer: AttestationSigner;
  address: Address;
  /** The key, when it is in the process (never with a signer URL): only the demo's chains use it. */
  privateKey?: Hex;
  /** Where the key came from, for the log line (never the key itself). */
  origin: "ATTESTER_PRIVATE_KEY" | "ATTESTER_KEY_FILE" | "dev key created" | "dev key reused" | "ATTESTER_SIGNER_URL";
  /** The key file, or the signer's endpoint (scheme, host and port only). */
  file?: string;
};
export type LoadAttesterKeyErrorType = ConfigError;

const KEY = /^0x[0-9a-fA-F]{64}$/;

/**
 * Gets the attester's signer: a JSON-RPC signer (`ATTESTER_SIGNER_URL` + `ATTESTER_ADDRESS`; no key file is read or
 * created, and nothing is asked of the signer until the first issuance), else the key from ATTESTER_PRIVATE_KEY, from
 * ATTESTER_KEY_FILE, or the dev key kept in `DATA_DIR/attester.key`, created once (mode 0600) and reused on every
 * later start. The key is never logged.
 *
 * @param {@link LoadAttesterKeyParameters}
 * @returns the signer, its address and where it came from (the key too when it is in the process).
 * @throws {@link ConfigError} when a key file is unreadable or does not hold `0x` + 64 hex digits, or a signer is
 *   given to the demo.
 */
export function loadAttesterKey({ source, signer, mode }: LoadAttesterKeyParameters): LoadAttesterKeyReturnType {
  if (signer) {
    if (mode === "demo") {
      throw new ConfigError({
        variable: "ATTESTER_SIGNER_URL",
        message: "the demo signs with its dev key; a signer needs the configured mode (RPC_URL_<chainId>, POOLS_FILE)",
      });
    }
    return {
      signer: createJsonRpcSigner(signer),
      address: signer.address,
      origin: "ATTESTER_SIGNER_URL",
      file: redactRpcUrl(signer.url),
    };
  }
  const local = loadLocalKey(source);
  return { ...local, signer: createLocalSigner(local.privateKey) };
}

/** The key in the process: from the environment, a key file, or the dev key (created once). */
function loadLocalKey(
  source: ServiceConfig["attesterKey"],
): Omit<LoadAttesterKeyReturnType, "signer"> & { privateKey: Hex } {
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
