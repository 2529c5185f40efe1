import type { Address } from "viem";

import type { RegistryErrorType } from "../errors/registry";
import type { RpcErrorType } from "../errors/rpc";
import { getAttesterStatus } from "./getAttesterStatus";
import { writeRegistry } from "./internal/writeRegistry";
import type { RegistryPublicClient, RegistryWalletClient, RegistryWriteReturnType } from "./types";

export type AddBondParameters = {
  /** A public client on the registry's chain. */
  publicClient: RegistryPublicClient;
  /** A wallet client whose account pays (anyone may top up an attester's bond). */
  walletClient: RegistryWalletClient;
  /** The registry address. */
  registry: Address;
  /** The amount to add, in wei. */
  amount: bigint;
  /** The attester whose bond grows (default: the wallet's account). */
  attester?: Address | undefined;
};

export type AddBondReturnType = RegistryWriteReturnType;

export type AddBondErrorType = RegistryErrorType | RpcErrorType | Error;

/**
 * Adds `amount` wei to a registered, non-unbonding attester's bond (`addBond(attester)`).
 *
 * @param parameters - {@link AddBondParameters}
 * @returns The transaction hash, its receipt and the attester's state. {@link AddBondReturnType}
 *
 * @example
 * import { parseEther } from "viem";
 * import { addBond } from "./actions/addBond";
 *
 * const { state } = await addBond({ publicClient, walletClient, registry, amount: parseEther("0.5"), attester });
 * console.log(state.bond);
 */
export async function addBond({
  publicClient,
  walletClient,
  registry,
  amount,
  attester,
}: AddBondParameters): Promise<AddBondReturnType> {
  const target = attester ?? walletClient.account.address;
  const { hash, receipt } = await writeRegistry({
    publicClient,
    walletClient,
    registry,
    functionName: "addBond",
    args: [target],
    value: amount,
  });
  const state = await getAttesterStatus({ publicClient, registry, attester: target, blockNumber: receipt.blockNumber });
  return { hash, receipt, state };
}
