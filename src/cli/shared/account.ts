import type { LocalAccount } from "viem";
import { privateKeyToAccount } from "viem/accounts";

import { MissingPrivateKeyError } from "@attestation-registry/sdk";
import { UsageError } from "../../errors/cli";
import { loadPrivateKey } from "./keys";

/** Whether the command was given a key at all (flag or environment). */
export function hasAttesterKey({ keyFile, env }: { keyFile?: string | undefined; env: NodeJS.ProcessEnv }): boolean {
  return Boolean(keyFile || env.ATTESTER_KEY_FILE || env.ATTESTER_PRIVATE_KEY);
}

/**
 * The attester key as a viem local account, through the CLI's one key loader (`--key-file`, else
 * `ATTESTER_PRIVATE_KEY` or `ATTESTER_KEY_FILE`). A missing key is a usage error (exit 64); an unreadable file or a
 * malformed key is a one-line error (exit 1). No message ever contains the key.
 */
export function loadAttesterAccount({
  keyFile,
  env,
}: {
  keyFile?: string | undefined;
  env: NodeJS.ProcessEnv;
}): LocalAccount {
  try {
    return privateKeyToAccount(loadPrivateKey({ keyFile, env }));
  } catch (error) {
    if (error instanceof MissingPrivateKeyError) {
      throw new UsageError("no attester key: pass --key-file <path>, or set ATTESTER_KEY_FILE or ATTESTER_PRIVATE_KEY");
    }
    throw error;
  }
}
