import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Address, Hex } from "viem";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { createJsonRpcSigner, createLocalSigner, type AttestationSigner } from "../attest/signer";
import type { ServiceConfig } from "../config/loadConfig";
import { ConfigError } from "../errors/config";
import { redactRpcUrl } from "@attestation-registry/sdk/errors";

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
 * @throws {@link ConfigError} when a key file is unreadable, readable by group or others (`chmod 600`), or does not
 *   hold `0x` + 64 hex digits, or a signer is given to the demo.
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
    assertKeyFilePrivate(source.file);
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

/**
 * A key file readable by group or others (mode & 0o077) is refused: the key would be anyone's on the host. A file that
 * cannot be stat'ed is left to {@link readKeyFile}, which names why it cannot be read.
 */
function assertKeyFilePrivate(file: string): void {
  let mode: number;
  try {
    mode = statSync(file).mode & 0o777;
  } catch {
    return;
  }
  if ((mode & 0o077) !== 0) {
    throw new ConfigError({
      variable: "ATTESTER_KEY_FILE",
      message: `${file} is readable by group or others (mode 0${mode.toString(8)}): chmod 600 ${file}`,
    });
  }
}

/**
 * The configured mode never signs with a generated development key (docs/operations.md#start-up-checks): a process that
 * signs (`SERVICE_ROLE` all or worker) needs `ATTESTER_PRIVATE_KEY`, `ATTESTER_KEY_FILE` or `ATTESTER_SIGNER_URL`. The
 * demo keeps its dev key; an api process loads no key. Checked before anything is written (no dev key file is created).
 *
 * @param config the mode, the role and where the key comes from.
 * @throws {@link ConfigError} naming the three variables, in one line.
 */
export function assertSigningKeyConfigured(
  config: Pick<ServiceConfig, "mode" | "role" | "attesterKey" | "attesterSigner">,
): void {
  if (config.mode !== "configured" || config.role === "api") return;
  if (config.attesterSigner !== null || !("dataDir" in config.attesterKey)) return;
  throw new ConfigError({
    variable: "ATTESTER_PRIVATE_KEY",
    message:
      "the configured mode never signs with a generated development key: set ATTESTER_PRIVATE_KEY, ATTESTER_KEY_FILE " +
      "or ATTESTER_SIGNER_URL (with ATTESTER_ADDRESS)",
  });
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
