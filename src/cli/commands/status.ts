import { getAttesterStatus } from "@attestation-registry/sdk";
import { hasAttesterKey, loadAttesterAccount } from "../shared/account";
import { parseAddressOption, parseCommandArgs } from "../shared/args";
import { printResult } from "../shared/output";
import { openRegistryForRead, registryOptions, registryOptionsUsage } from "../shared/registryOptions";
import { UsageError } from "../../errors/cli";
import type { CliCommand } from "../types";
import { COMMAND_SUMMARIES } from "../summaries";

export const statusCommand: CliCommand = {
  name: "status",
  summary: COMMAND_SUMMARIES.status,
  usage: `attest status [--attester <address>] ${registryOptionsUsage}`,
  async run(argv, io) {
    const { values } = parseCommandArgs({ argv, options: { ...registryOptions, attester: { type: "string" } } });
    let attester;
    if (values.attester !== undefined) attester = parseAddressOption("--attester", values.attester);
    else if (hasAttesterKey({ keyFile: values["key-file"], env: io.env })) {
      attester = loadAttesterAccount({ keyFile: values["key-file"], env: io.env }).address;
    } else {
      throw new UsageError(
        "no attester: pass --attester <address> (or a key with --key-file / ATTESTER_KEY_FILE / ATTESTER_PRIVATE_KEY)",
      );
    }
    const { publicClient, registry } = await openRegistryForRead(values, io);
    const state = await getAttesterStatus({ publicClient, registry, attester });
    printResult({ io, command: "status", state, json: values.json === true });
    return 0;
  },
};
