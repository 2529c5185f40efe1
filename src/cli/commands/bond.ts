import { addBond } from "@attestation-registry/sdk";
import { parseAddressOption, parseCommandArgs, parseEtherOption } from "../shared/args";
import { printResult } from "../shared/output";
import { openRegistryForWrite, registryOptions, registryOptionsUsage } from "../shared/registryOptions";
import type { CliCommand } from "../types";
import { COMMAND_SUMMARIES } from "../summaries";

export const bondCommand: CliCommand = {
  name: "bond",
  summary: COMMAND_SUMMARIES.bond,
  usage: `attest bond --amount <eth> [--attester <address>] ${registryOptionsUsage}`,
  async run(argv, io) {
    const { values } = parseCommandArgs({
      argv,
      options: { ...registryOptions, amount: { type: "string" }, attester: { type: "string" } },
    });
    const amount = parseEtherOption("--amount", values.amount);
    const attester = values.attester === undefined ? undefined : parseAddressOption("--attester", values.attester);
    const { publicClient, walletClient, registry } = await openRegistryForWrite(values, io);
    const { hash, state } = await addBond({ publicClient, walletClient, registry, amount, attester });
    printResult({ io, command: "bond", hash, state, json: values.json === true });
    return 0;
  },
};
