import { parseArgs } from "node:util";
import { getAttestationTypedData } from "../../lib/getAttestationTypedData";
import { parseAttestationJson } from "../../lib/parseAttestationJson";
import { hashTypedData } from "viem";
import type { Attestation } from "../../lib/types";
import type { CliCommand, CliIo } from "../types";
import { UsageError } from "../types";
import { argsUsageError, readInputText } from "./verify";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const DECIMAL = /^(0|[1-9][0-9]*)$/;

/** Registry address and chain from `--registry`/`--chain`, else `REGISTRY_ADDRESS`/`REGISTRY_CHAIN_ID`. */
export function registryOptions(values: { registry?: string; chain?: string }, io: CliIo) {
  const address = values.registry ?? io.env.REGISTRY_ADDRESS;
  const chain = values.chain ?? io.env.REGISTRY_CHAIN_ID;
  if (address === undefined || address === "")
    throw new UsageError("--registry <address> (or REGISTRY_ADDRESS) is required");
  if (!ADDRESS.test(address))
    throw new UsageError(`--registry must be 0x followed by 40 hex digits, got ${JSON.stringify(address)}`);
  if (chain === undefined || chain === "")
    throw new UsageError("--chain <registry chain id> (or REGISTRY_CHAIN_ID) is required");
  if (!DECIMAL.test(chain) || !Number.isSafeInteger(Number(chain)))
    throw new UsageError(`--chain must be a decimal chain id, got ${JSON.stringify(chain)}`);
  return { address, chainId: Number(chain) };
}

/**
 * `attest digest <file|-> --registry <address> --chain <registry chain id>`
 *
 * Prints the v2 (EIP-712) digest of an attestation under the registry's domain: the value the registry's
 * `hashAttestation` returns and the key `attest revoke` takes.
 */
export const digestCommand: CliCommand = {
  name: "digest",
  summary: "print the v2 (EIP-712) digest of an attestation for a registry",
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
    const registry = registryOptions(values, io);
    const attestation = parseAttestationJson({ text: await readInputText(positionals[0], io) }) as Attestation;
    io.stdout(hashTypedData(getAttestationTypedData({ attestation, registry })));
    return 0;
  },
};
