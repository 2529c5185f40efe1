import { parseArgs } from "node:util";
import { getAttestationTypedData, parseAttestationJson, type Attestation } from "@attestation-registry/sdk";
import { hashTypedData } from "viem";
import { UsageError } from "../../errors/cli";
import { argsUsageError } from "../shared/args";
import { readInputText } from "../shared/input";
import { resolveRegistryDomain } from "../shared/registryDomain";
import type { CliCommand } from "../types";
import { COMMAND_SUMMARIES } from "../summaries";

/**
 * `attest digest <file|-> --registry <address> --chain <registry chain id>`
 *
 * Prints the v2 (EIP-712) digest of an attestation under the registry's domain: the value the registry's
 * `hashAttestation` returns and the key `attest revoke` takes.
 */
export const digestCommand: CliCommand = {
  name: "digest",
  summary: COMMAND_SUMMARIES.digest,
  usage: "attest digest <file|-> --registry <address> --chain <registry chain id>",
  async run(argv, io) {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv,
        allowPositionals: true,
        strict: true,
        options: { registry: { type: "string" }, chain: { type: "string" } },
      });
    } catch (error) {
      throw argsUsageError(error);
    }
    const { values, positionals } = parsed;
    if (positionals.length !== 1) throw new UsageError("give exactly one attestation file, or - for standard input");
    const registry = resolveRegistryDomain(values, io);
    const attestation = parseAttestationJson({ text: await readInputText(positionals[0], io) }) as Attestation;
    io.stdout(hashTypedData(getAttestationTypedData({ attestation, registry })));
    return 0;
  },
};
