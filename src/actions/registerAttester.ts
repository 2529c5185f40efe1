import type { Address } from "viem";

import type { RegistryErrorType } from "../errors/registry";
import type { RpcErrorType } from "../errors/rpc";
import { getAttesterStatus } from "./getAttesterStatus";
import { writeRegistry } from "./internal/writeRegistry";
import type { RegistryPublicClient, RegistryWalletClient, RegistryWriteReturnType } from "./types";

export type RegisterAttesterParameters = {
  /** A public client on the registry's chain. */
  publicClient: RegistryPublicClient;
  /** A wallet client whose account is the attester key being registered. */
  walletClient: RegistryWalletClient;
  /** The registry address. */
  registry: Address;
  /** The bond, in wei (at least the registry's `minBond`). */
  bond: bigint;
  /** Where a withdrawal sends the bond (default: the attester key itself). */
  beneficiary?: Address | undefined;
};

export type RegisterAttesterReturnType = RegistryWriteReturnType;

export type RegisterAttesterErrorType = RegistryErrorType | RpcErrorType | Error;

/**
 * Registers the wallet's account as an attester key with `bond` wei as its bond (`register(beneficiary)`).
 *
 * @param parameters - {@link RegisterAttesterParameters}
 * @returns The transaction hash, its receipt and the attester's state. {@link RegisterAttesterReturnType}
 *
 * @example
 * import { createPublicClient, createWalletClient, http, parseEther } from "viem";
 * import { privateKeyToAccount } from "viem/accounts";
 * import { registerAttester } from "./actions/registerAttester";
 *
 * const transport = http("http://127.0.0.1:8545");
 * const publicClient = createPublicClient({ transport });
 * const walletClient = createWalletClient({ account: privateKeyToAccount(key), transport });
 * const { hash, state } = await registerAttester({ publicClient, walletClient, registry, bond: parseEther("1") });
 */
export async function registerAttester({
  publicClient,
  walletClient,
  registry,
  bond,
  beneficiary,
}: RegisterAttesterParameters): Promise<RegisterAttesterReturnType> {
  const attester = walletClient.account.address;
  const { hash, receipt } = await writeRegistry({
    publicClient,
    walletClient,
    registry,
    functionName: "register",
    args: [beneficiary ?? attester],
    value: bond,
  });
  const state = await getAttesterStatus({ publicClient, registry, attester, blockNumber: receipt.blockNumber });
  return { hash, receipt, state };
}
