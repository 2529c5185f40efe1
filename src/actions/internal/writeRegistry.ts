import type { Address, ContractFunctionName, Hash, TransactionReceipt } from "viem";

import { attestationRegistryAbi } from "../../abi/attestationRegistryAbi";
import { InsufficientFundsError, RegistryTransactionRevertedError } from "../../errors/rpc";
import type { RegistryPublicClient, RegistryWalletClient } from "../types";
import { assertRegistryDeployed } from "./assertRegistryDeployed";
import { toRegistryError } from "./toRegistryError";

type WriteFunctionName = ContractFunctionName<typeof attestationRegistryAbi, "nonpayable" | "payable">;

/**
 * The shared path of every registry write: check the address holds code, check the balance covers the value,
 * simulate (so a revert becomes a decoded custom error, mapped to a typed error), send, wait for the receipt.
 */
export async function writeRegistry({
  publicClient,
  walletClient,
  registry,
  functionName,
  args,
  value,
}: {
  publicClient: RegistryPublicClient;
  walletClient: RegistryWalletClient;
  registry: Address;
  functionName: WriteFunctionName;
  args: readonly unknown[];
  value?: bigint | undefined;
}): Promise<{ hash: Hash; receipt: TransactionReceipt }> {
  const account = walletClient.account;
  const context = { account: account.address, value };
  await assertRegistryDeployed({ publicClient, registry });

  if (value !== undefined && value > 0n) {
    const balance = await publicClient.getBalance({ address: account.address }).catch((error: unknown) => {
      throw toRegistryError(error, context);
    });
    if (balance < value) throw new InsufficientFundsError({ account: account.address, value, balance });
  }

  let request: Parameters<RegistryWalletClient["writeContract"]>[0];
  try {
    const simulation = await publicClient.simulateContract({
      address: registry,
      abi: attestationRegistryAbi,
      // The callers fix the name and argument types; the union of all of them is too wide to check here.
      functionName: functionName as never,
      args: args as never,
      account,
      ...(value !== undefined ? { value } : {}),
    } as never);
    request = { ...(simulation.request as object), chain: walletClient.chain ?? null } as never;
  } catch (error) {
    throw toRegistryError(error, context);
  }

  let hash: Hash;
  try {
    hash = await walletClient.writeContract(request);
  } catch (error) {
    throw toRegistryError(error, context);
  }

  let receipt: TransactionReceipt;
  try {
    receipt = await publicClient.waitForTransactionReceipt({ hash });
  } catch (error) {
    throw toRegistryError(error, context);
  }
  if (receipt.status !== "success") throw new RegistryTransactionRevertedError({ hash });
  return { hash, receipt };
}
