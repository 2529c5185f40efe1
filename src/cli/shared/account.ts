import { readFileSync } from "node:fs";

import type { Hex, LocalAccount } from "viem";
import { privateKeyToAccount } from "viem/accounts";

import { UsageError } from "../types";

const keyPattern = /^(0x)?[0-9a-fA-F]{64}$/;

/** Whether the command was given a key at all (flag or environment). */
export function hasAttesterKey({ keyFile, env }: { keyFile?: string | undefined; env: NodeJS.ProcessEnv }): boolean {
  return Boolean(keyFile || env.ATTESTER_KEY_FILE || env.ATTESTER_PRIVATE_KEY);
}

/**
 * The attester key as a viem local account, from `--key-file`, else `ATTESTER_KEY_FILE`, else
 * `ATTESTER_PRIVATE_KEY`. No message ever contains the key or the file's contents.
 */
export function loadAttesterAccount({
  keyFile,
  env,
}: {
  keyFile?: string | undefined;
  env: NodeJS.ProcessEnv;
}): LocalAccount {
  const file = keyFile || env.ATTESTER_KEY_FILE;
  let key: string;
  let source: string;
  if (file) {
    source = keyFile ? `--key-file ${file}` : `ATTESTER_KEY_FILE (${file})`;
    try {
      key = readFileSync(file, "utf8").trim();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new Error(`cannot read the key file ${source}${code ? ` (${code})` : ""}: check the path and permissions`);
    }
  } else if (env.ATTESTER_PRIVATE_KEY) {
    source = "ATTESTER_PRIVATE_KEY";
    key = env.ATTESTER_PRIVATE_KEY.trim();
  } else {
    throw new UsageError("no attester key: pass --key-file <path>, or set ATTESTER_KEY_FILE or ATTESTER_PRIVATE_KEY");
  }
  if (!keyPattern.test(key)) {
    throw new Error(`the key in ${source} is not a private key: it must be 64 hex digits, optionally 0x-prefixed`);
  }
  const hex = (key.startsWith("0x") ? key : `0x${key}`) as Hex;
  try {
    return privateKeyToAccount(hex);
  } catch {
    // Zero or a value at or above the curve order.
    throw new Error(`the key in ${source} is not a valid secp256k1 private key`);
  }
}
