import { getAddress, type Address } from "viem";

import { attestationRegistryAbi } from "../abi/attestationRegistryAbi";
import type { RegistryErrorType } from "../errors/registry";
import type { RpcErrorType } from "../errors/rpc";
import { assertRegistryDeployed } from "./internal/assertRegistryDeployed";
import { toRegistryError } from "./internal/toRegistryError";
import type { AttesterState, RegistryPublicClient } from "./types";

export type GetAttesterStatusParameters = {
  /** A public client on the registry's chain. */
  publicClient: RegistryPublicClient;
  /** The registry address. */
  registry: Address;
  /** The attester key. */
  attester: Address;
  /** Read at this block (default: the latest). */
  blockNumber?: bigint | undefined;
};

/** The attester's state: {@link AttesterState}. */
export type GetAttesterStatusReturnType = AttesterState;

export type GetAttesterStatusErrorType = RegistryErrorType | RpcErrorType | Error;

/**
 * Reads an attester's state from the registry: its record, `minBond`, `unbondingPeriod`, whether it currently backs
 * attestations and when its bond becomes withdrawable. All reads are pinned to one block.
 *
 * @param parameters - {@link GetAttesterStatusParameters}
 * @returns The attester's state. {@link GetAttesterStatusReturnType}
 *
 * @example
 * import { createPublicClient, http } from "viem";
 * import { getAttesterStatus } from "./actions/getAttesterStatus";
 *
 * const publicClient = createPublicClient({ transport: http("http://127.0.0.1:8545") });
 * const status = await getAttesterStatus({ publicClient, registry: "0x5FbD…0aa3", attester: "0xf39F…2266" });
 * if (!status.active) console.log("this key backs nothing");
 */
export async function getAttesterStatus({
  publicClient,
  registry,
  attester,
  blockNumber,
}: GetAttesterStatusParameters): Promise<GetAttesterStatusReturnType> {
  await assertRegistryDeployed({ publicClient, registry });
  try {
    const block = await publicClient.getBlock(blockNumber === undefined ? { blockTag: "latest" } : { blockNumber });
    const at = { address: registry, abi: attestationRegistryAbi, blockNumber: block.number } as const;
    const [info, minBond, unbondingPeriod] = await Promise.all([
      publicClient.readContract({ ...at, functionName: "getAttester", args: [attester] }),
      publicClient.readContract({ ...at, functionName: "minBond" }),
      publicClient.readContract({ ...at, functionName: "unbondingPeriod" }),
    ]);
    const withdrawableAt = info.unbonding ? info.withdrawableAt : null;
    return {
      attester: getAddress(attester),
      registry: getAddress(registry),
      blockNumber: block.number,
      timestamp: block.timestamp,
      registered: info.registered,
      unbonding: info.unbonding,
      hasRevoked: info.hasRevoked,
      bond: info.bond,
      beneficiary: info.beneficiary,
      withdrawableAt,
      minBond,
      unbondingPeriod,
      active: info.registered && !info.unbonding && info.bond >= minBond,
      // The next block's timestamp is greater than this one's, so ">=" here is ">" there: either rule holds.
      withdrawable: withdrawableAt !== null && info.bond > 0n && block.timestamp >= withdrawableAt,
    };
  } catch (error) {
    throw toRegistryError(error, {});
  }
}
