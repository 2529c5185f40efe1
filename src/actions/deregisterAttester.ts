import type { Address } from "viem";

import type { RegistryErrorType } from "../errors/registry";
import type { RpcErrorType } from "../errors/rpc";
import { getAttesterStatus } from "./getAttesterStatus";
import { writeRegistry } from "./internal/writeRegistry";
import type { RegistryPublicClient, RegistryWalletClient, RegistryWriteReturnType } from "./types";

export type DeregisterAttesterParameters = {
  /** A public client on the registry's chain. */
  publicClient: RegistryPublicClient;
  /** A wallet client whose account is the attester key. */
  walletClient: RegistryWalletClient;
  /** The registry address. */
  registry: Address;
};

export type DeregisterAttesterReturnType = RegistryWriteReturnType;

export type DeregisterAttesterErrorType = RegistryErrorType | RpcErrorType | Error;

/**
 * Deregisters the wallet's account and starts unbonding its bond (`deregister()`).
 *
 * @param parameters - {@link DeregisterAttesterParameters}
 * @returns The transaction hash, its receipt and the attester's state. {@link DeregisterAttesterReturnType}
 *
 * @example
 * import { deregisterAttester } from "./actions/deregisterAttester";
 *
 * const { hash, state } = await deregisterAttester({ publicClient, walletClient, registry });
 */
export async function deregisterAttester({
  publicClient,
  walletClient,
  registry,
}: DeregisterAttesterParameters): Promise<DeregisterAttesterReturnType> {
  const attester = walletClient.account.address;
  const { hash, receipt } = await writeRegistry({
    publicClient,
    walletClient,
    registry,
    functionName: "deregister",
    args: [],
  });
  const state = await getAttesterStatus({ publicClient, registry, attester, blockNumber: receipt.blockNumber });
  return { hash, receipt, state };
}
