import { readFileSync } from "node:fs";
import type { Hex } from "viem";
import { InvalidPrivateKeyError, MissingPrivateKeyError, UnreadableKeyFileError } from "@attestation-registry/sdk";
import { assertPrivateKey } from "@attestation-registry/sdk/internal";

export type LoadPrivateKeyParameters = {
  /** A path given on the command line (`--key-file`). Wins over the environment. */
  keyFile?: string | undefined;
  /** The environment: `ATTESTER_PRIVATE_KEY` (the key itself) or `ATTESTER_KEY_FILE` (a path). */
  env: NodeJS.ProcessEnv;
};

export type LoadPrivateKeyReturnType = Hex;

export type LoadPrivateKeyErrorType = InvalidPrivateKeyError | MissingPrivateKeyError | UnreadableKeyFileError;

/**
 * Loads the attester's private key for CLI commands, in this order: `keyFile` (`--key-file`), then
 * `ATTESTER_PRIVATE_KEY` or `ATTESTER_KEY_FILE` (setting both is an error: it is ambiguous which key signs).
 * A key file holds the key as 64 hex digits with optional `0x`; surrounding whitespace is ignored.
 * Errors say where the key came from and what is wrong with it, never the key itself.
 *
 * @param parameters - {@link LoadPrivateKeyParameters}
 * @returns The key, `0x`-prefixed, lower case. {@link LoadPrivateKeyReturnType}
 *
 * @example
 * import { loadPrivateKey } from "../shared/keys";
 * import { privateKeyToAccount } from "viem/accounts";
 *
 * const account = privateKeyToAccount(loadPrivateKey({ keyFile: values["key-file"], env: io.env }));
 */
export function loadPrivateKey({ keyFile, env }: LoadPrivateKeyParameters): LoadPrivateKeyReturnType {
  if (keyFile !== undefined) return readKeyFile(keyFile, "--key-file");
  const inline = env.ATTESTER_PRIVATE_KEY;
  const file = env.ATTESTER_KEY_FILE;
  if (inline !== undefined && inline !== "" && file !== undefined && file !== "")
    throw new InvalidPrivateKeyError({
      source: "the environment",
      reason: "both ATTESTER_PRIVATE_KEY and ATTESTER_KEY_FILE are set; unset one",
    });
  if (inline !== undefined && inline !== "") return assertPrivateKey(inline.trim(), "ATTESTER_PRIVATE_KEY");
  if (file !== undefined && file !== "") return readKeyFile(file, "ATTESTER_KEY_FILE");
  throw new MissingPrivateKeyError();
}

function readKeyFile(path: string, via: string): Hex {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UnreadableKeyFileError({ path, cause: error instanceof Error ? error : undefined });
  }
  return assertPrivateKey(text.trim(), `key file ${JSON.stringify(path)} (${via})`);
}
