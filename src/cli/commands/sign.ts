import { parseArgs } from "node:util";
import { privateKeyToAddress } from "viem/accounts";
import {
  getAttestationTypedData,
  parseAttestationJson,
  signAttestation,
  signTypedAttestation,
  type Attestation,
} from "@attestation-registry/sdk";
import { UsageError } from "../../errors/cli";
import { argsUsageError } from "../shared/args";
import { readInputText } from "../shared/input";
import { loadPrivateKey } from "../shared/keys";
import { resolveRegistryDomain } from "../shared/registryDomain";
import type { CliCommand } from "../types";
import { COMMAND_SUMMARIES } from "../summaries";

/**
 * `attest sign <file|-> [--key-file <path>]`
 * `attest sign <file|-> --v2 --registry <address> --chain <registry chain id> [--key-file <path>]`
 *
 * Reads the attestation fields, signs them with the attester key (`--key-file`, `ATTESTER_PRIVATE_KEY` or
 * `ATTESTER_KEY_FILE`) and prints the attestation as one JSON line: v1 sets `signature` and `attester`; `--v2`
 * adds the `eip712` block (`domain`, `types`, `primaryType`, `message` with integers as decimal strings,
 * `signature`). The key is never printed.
 */
export const signCommand: CliCommand = {
  name: "sign",
  summary: COMMAND_SUMMARIES.sign,
  usage:
    "attest sign <file|-> [--key-file <path>]\n" +
    "       attest sign <file|-> --v2 --registry <address> --chain <registry chain id> [--key-file <path>]",
  async run(argv, io) {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv,
        allowPositionals: true,
        strict: true,
        options: {
          v2: { type: "boolean" },
          registry: { type: "string" },
          chain: { type: "string" },
          "key-file": { type: "string" },
        },
      });
    } catch (error) {
      throw argsUsageError(error);
    }
    const { values, positionals } = parsed;
    if (positionals.length !== 1) throw new UsageError("give exactly one attestation file, or - for standard input");
    if (!values.v2 && (values.registry !== undefined || values.chain !== undefined))
      throw new UsageError("--registry and --chain are for --v2 signatures");
    const registry = values.v2 ? resolveRegistryDomain(values, io) : undefined;
    const input = parseAttestationJson({ text: await readInputText(positionals[0], io) });
    if (typeof input !== "object" || input === null || Array.isArray(input))
      throw new UsageError("the input must be a JSON object with the attestation fields");
    const attestation = input as Attestation;
    const privateKey = loadPrivateKey({ keyFile: values["key-file"], env: io.env });
    const signer = privateKeyToAddress(privateKey);

    if (registry === undefined) {
      const signature = await signAttestation({ attestation, privateKey });
      io.stdout(JSON.stringify({ ...attestation, signature, attester: signer }));
      return 0;
    }
    const { domain, types, primaryType, message } = getAttestationTypedData({ attestation, registry });
    const signature = await signTypedAttestation({ attestation, registry, privateKey });
    const eip712 = {
      domain: { ...domain, chainId: domain.chainId.toString() },
      types,
      primaryType,
      message: {
        chainId: message.chainId.toString(),
        pool: message.pool,
        confidence: String(message.confidence),
        horizonDays: String(message.horizonDays),
        issuedAt: message.issuedAt.toString(),
        expiresAt: message.expiresAt.toString(),
      },
      signature,
    };
    io.stdout(JSON.stringify({ ...attestation, attester: signer, eip712 }));
    return 0;
  },
};
