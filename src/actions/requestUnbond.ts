import type { Address } from "viem";

import type { RegistryErrorType } from "../errors/registry";
import type { RpcErrorType } from "../errors/rpc";
import { getAttesterStatus } from "./getAttesterStatus";
import { writeRegistry } from "./internal/writeRegistry";
import type { RegistryPublicClient, RegistryWalletClient, RegistryWriteReturnType } from "./types";

export type RequestUnbondParameters = {
  /** A public client on the registry's chain. */
  publicClient: RegistryPublicClient;
  /** A wallet client whose account is the attester key. */
  walletClient: RegistryWalletClient;
  /** The registry address. */
  registry: Address;
};

export type RequestUnbondReturnType = RegistryWriteReturnType;

export type RequestUnbondErrorType = RegistryErrorType | RpcErrorType | Error;

/**
 * Starts unbonding the wallet's account's whole bond (`requestUnbond()`); the key backs nothing from this block on.
 *
 * @param parameters - {@link RequestUnbondParameters}
 * @returns The transaction hash, its receipt and the attester's state. {@link RequestUnbondReturnType}
 *
 * @example
 * import { requestUnbond } from "./actions/requestUnbond";
 *
 * const { hash, state } = await requestUnbond({ publicClient, walletClient, registry });
 */
export async function requestUnbond({
  publicClient,
  walletClient,
  registry,
}: RequestUnbondParameters): Promise<RequestUnbondReturnType> {
  const attester = walletClient.account.address;
  const { hash, receipt } = await writeRegistry({
    publicClient,
    walletClient,
    registry,
    functionName: "requestUnbond",
    args: [],
  });
  const state = await getAttesterStatus({ publicClient, registry, attester, blockNumber: receipt.blockNumber });
  return { hash, receipt, state };
}
