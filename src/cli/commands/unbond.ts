import { deregisterAttester, requestUnbond } from "@attestation-registry/sdk";
import { parseCommandArgs } from "../shared/args";
import { printResult } from "../shared/output";
import { openRegistryForWrite, registryOptions, registryOptionsUsage } from "../shared/registryOptions";
import type { CliCommand } from "../types";
import { COMMAND_SUMMARIES } from "../summaries";

export const unbondCommand: CliCommand = {
  name: "unbond",
  summary: COMMAND_SUMMARIES.unbond,
  usage: `attest unbond [--deregister] ${registryOptionsUsage}`,
  async run(argv, io) {
    const { values } = parseCommandArgs({ argv, options: { ...registryOptions, deregister: { type: "boolean" } } });
    const { publicClient, walletClient, registry } = await openRegistryForWrite(values, io);
    const action = values.deregister ? deregisterAttester : requestUnbond;
    const { hash, state } = await action({ publicClient, walletClient, registry });
    printResult({ io, command: "unbond", hash, state, json: values.json === true });
    return 0;
  },
};
