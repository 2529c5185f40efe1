/**
 * Registers an attester on a Hardhat network: `npx hardhat run --network localhost scripts/register-attester.ts`.
 *
 * Environment: `BOND` in ether (default: the registry minimum); `REGISTRY_ADDRESS` (default: the Ignition deployment
 * `ignition/deployments/chain-<id>/deployed_addresses.json`); `ATTESTER_PRIVATE_KEY` / `ATTESTER_KEY_FILE` (default:
 * the network's account #1, unlocked on Hardhat networks); `BENEFICIARY` (default: the attester).
 * Prints one JSON line; on failure one line with the fix, exit 1. For any other RPC, use `npx attest register`.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

import type { HardhatRuntimeEnvironment } from "hardhat/types";
import { createPublicClient, createWalletClient, custom, getAddress, isAddress, parseEther, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";

import { getAttesterStatus } from "../src/actions/getAttesterStatus";
import { registerAttester } from "../src/actions/registerAttester";
import type { RegistryPublicClient, RegistryWalletClient } from "../src/actions/types";
import { loadPrivateKey } from "../src/cli/shared/keys";
import { statusToJson } from "../src/cli/shared/output";

/** The Ignition future id of the registry in `AttestationRegistryModule`. */
const IGNITION_ID = "AttestationRegistryModule#AttestationRegistry";

/** `REGISTRY_ADDRESS`, else the address Ignition recorded for this chain. */
export function findRegistry(env: NodeJS.ProcessEnv, chainId: number, root = path.join(__dirname, "..")): Address {
  if (env.REGISTRY_ADDRESS) {
    if (!isAddress(env.REGISTRY_ADDRESS, { strict: false })) throw new Error("REGISTRY_ADDRESS is not an address");
    return getAddress(env.REGISTRY_ADDRESS);
  }
  const file = path.join(root, "ignition", "deployments", `chain-${chainId}`, "deployed_addresses.json");
  const recorded = existsSync(file)
    ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, string>)[IGNITION_ID]
    : undefined;
  if (!recorded) {
    throw new Error(
      `no registry on chain ${chainId}: set REGISTRY_ADDRESS or deploy it with "npx hardhat ignition deploy ignition/modules/AttestationRegistry.ts --network <name>"`,
    );
  }
  return getAddress(recorded);
}

/** Registers the configured attester through `hre`'s provider and returns the script's JSON result. */
export async function registerAttesterOnHardhat(
  hre: HardhatRuntimeEnvironment,
  env: NodeJS.ProcessEnv,
): Promise<Record<string, unknown>> {
  const transport = custom(hre.network.provider, { retryCount: 0 });
  const publicClient: RegistryPublicClient = createPublicClient({ transport });
  const chainId = await publicClient.getChainId();
  const registry = findRegistry(env, chainId);
  const keyed = Boolean(env.ATTESTER_PRIVATE_KEY || env.ATTESTER_KEY_FILE);
  const account = keyed
    ? privateKeyToAccount(loadPrivateKey({ env }))
    : getAddress(((await hre.network.provider.request({ method: "eth_accounts" })) as string[])[1] ?? "0x");
  const walletClient = createWalletClient({ account, transport }) as RegistryWalletClient;
  const bond = env.BOND
    ? parseEther(env.BOND)
    : (await getAttesterStatus({ publicClient, registry, attester: walletClient.account.address })).minBond;
  const beneficiary = env.BENEFICIARY ? getAddress(env.BENEFICIARY) : undefined;
  const { hash, state } = await registerAttester({ publicClient, walletClient, registry, bond, beneficiary });
  return { command: "register", network: hre.network.name, hash, state: statusToJson(state) };
}

if (require.main === module) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- only when run on its own
  const hre = require("hardhat") as HardhatRuntimeEnvironment;
  registerAttesterOnHardhat(hre, process.env).then(
    (result) => console.log(JSON.stringify(result)),
    (error: unknown) => {
      const message =
        error && typeof error === "object" && "shortMessage" in error ? String(error.shortMessage) : String(error);
      console.error(`register-attester: ${message.replace(/^Error: /, "").split("\n")[0]}`);
      process.exitCode = 1;
    },
  );
}
