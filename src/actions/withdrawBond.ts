import type { Address } from "viem";

import type { RegistryErrorType } from "../errors/registry";
import type { RpcErrorType } from "../errors/rpc";
import { getAttesterStatus } from "./getAttesterStatus";
import { writeRegistry } from "./internal/writeRegistry";
import type { RegistryPublicClient, RegistryWalletClient, RegistryWriteReturnType } from "./types";

export type WithdrawBondParameters = {
  /** A public client on the registry's chain. */
  publicClient: RegistryPublicClient;
  /** A wallet client whose account is the attester key. */
  walletClient: RegistryWalletClient;
  /** The registry address. */
  registry: Address;
};

export type WithdrawBondReturnType = RegistryWriteReturnType;

export type WithdrawBondErrorType = RegistryErrorType | RpcErrorType | Error;

/**
 * After the unbonding period, sends the wallet's account's whole bond to its beneficiary and clears the record (`withdraw()`).
 *
 * @param parameters - {@link WithdrawBondParameters}
 * @returns The transaction hash, its receipt and the attester's state. {@link WithdrawBondReturnType}
 *
 * @example
 * import { withdrawBond } from "./actions/withdrawBond";
 *
 * const { hash, state } = await withdrawBond({ publicClient, walletClient, registry });
 */
export async function withdrawBond({
  publicClient,
  walletClient,
  registry,
}: WithdrawBondParameters): Promise<WithdrawBondReturnType> {
  const attester = walletClient.account.address;
  const { hash, receipt } = await writeRegistry({
    publicClient,
    walletClient,
    registry,
    functionName: "withdraw",
    args: [],
  });
  const state = await getAttesterStatus({ publicClient, registry, attester, blockNumber: receipt.blockNumber });
  return { hash, receipt, state };
}
