import type { Hash } from "viem";

import { revokeDigests } from "@attestation-registry/sdk";
import { parseCommandArgs } from "../shared/args";
import { printResult } from "../shared/output";
import { openRegistryForWrite, registryOptions, registryOptionsUsage } from "../shared/registryOptions";
import { UsageError } from "../../errors/cli";
import type { CliCommand } from "../types";
import { COMMAND_SUMMARIES } from "../summaries";

const digestPattern = /^0x[0-9a-fA-F]{64}$/;

export const revokeCommand: CliCommand = {
  name: "revoke",
  summary: COMMAND_SUMMARIES.revoke,
  usage: `attest revoke <digest…> ${registryOptionsUsage}`,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs({ argv, options: registryOptions, allowPositionals: true });
    if (positionals.length === 0) throw new UsageError("no digest: pass one or more 0x-prefixed 32-byte digests");
    for (const digest of positionals) {
      if (!digestPattern.test(digest)) {
        throw new UsageError(
          `"${digest.slice(0, 80)}" is not a digest: pass 0x followed by 64 hex digits (the EIP-712 digest, see "attest digest")`,
        );
      }
    }
    const { publicClient, walletClient, registry } = await openRegistryForWrite(values, io);
    const { hash, state, digests } = await revokeDigests({
      publicClient,
      walletClient,
      registry,
      digests: positionals as Hash[],
    });
    printResult({ io, command: "revoke", hash, state, json: values.json === true, extra: { revoked: digests } });
    return 0;
  },
};
