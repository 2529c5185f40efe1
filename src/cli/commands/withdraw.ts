import { formatEther, parseEventLogs } from "viem";

import { attestationRegistryAbi, withdrawBond } from "@attestation-registry/sdk";
import { parseCommandArgs } from "../shared/args";
import { printResult } from "../shared/output";
import { openRegistryForWrite, registryOptions, registryOptionsUsage } from "../shared/registryOptions";
import type { CliCommand } from "../types";
import { COMMAND_SUMMARIES } from "../summaries";

export const withdrawCommand: CliCommand = {
  name: "withdraw",
  summary: COMMAND_SUMMARIES.withdraw,
  usage: `attest withdraw ${registryOptionsUsage}`,
  async run(argv, io) {
    const { values } = parseCommandArgs({ argv, options: registryOptions });
    const { publicClient, walletClient, registry } = await openRegistryForWrite(values, io);
    const { hash, receipt, state } = await withdrawBond({ publicClient, walletClient, registry });
    const [withdrawn] = parseEventLogs({ abi: attestationRegistryAbi, eventName: "Withdrawn", logs: receipt.logs });
    printResult({
      io,
      command: "withdraw",
      hash,
      state,
      json: values.json === true,
      extra: withdrawn
        ? { withdrawn: `${formatEther(withdrawn.args.amount)} ETH`, paidTo: withdrawn.args.beneficiary }
        : {},
    });
    return 0;
  },
};
