import { registerAttester } from "@attestation-registry/sdk";
import { parseAddressOption, parseCommandArgs, parseEtherOption } from "../shared/args";
import { printResult } from "../shared/output";
import { openRegistryForWrite, registryOptions, registryOptionsUsage } from "../shared/registryOptions";
import type { CliCommand } from "../types";
import { COMMAND_SUMMARIES } from "../summaries";

export const registerCommand: CliCommand = {
  name: "register",
  summary: COMMAND_SUMMARIES.register,
  usage: `attest register --bond <eth> [--beneficiary <address>] ${registryOptionsUsage}`,
  async run(argv, io) {
    const { values } = parseCommandArgs({
      argv,
      options: { ...registryOptions, bond: { type: "string" }, beneficiary: { type: "string" } },
    });
    const bond = parseEtherOption("--bond", values.bond);
    const beneficiary =
      values.beneficiary === undefined ? undefined : parseAddressOption("--beneficiary", values.beneficiary);
    const { publicClient, walletClient, registry } = await openRegistryForWrite(values, io);
    const { hash, state } = await registerAttester({ publicClient, walletClient, registry, bond, beneficiary });
    printResult({ io, command: "register", hash, state, json: values.json === true });
    return 0;
  },
};
