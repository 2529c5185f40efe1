import { getAddress, type Address } from "viem";

import { attestationRegistryAbi } from "../abi/attestationRegistryAbi";
import type { RegistryErrorType } from "../errors/registry";
import { assertRegistryDeployed } from "./internal/assertRegistryDeployed";
import { toRegistryError } from "./internal/toRegistryError";
import type { RegistryPublicClient } from "./types";

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

/** An attester's record plus the registry parameters and chain time needed to act on it. */
export type GetAttesterStatusReturnType = {
  /** The attester key, checksummed. */
  attester: Address;
  /** The registry address, checksummed. */
  registry: Address;
  /** The block the state was read at, and its timestamp (chain time, Unix seconds). */
  blockNumber: bigint;
  timestamp: bigint;
  /** Whether the key is registered (false after deregistration or withdrawal). */
  registered: boolean;
  /** Whether unbonding was requested or the attester was deregistered: it backs nothing. */
  unbonding: boolean;
  /** Whether the attester has ever revoked a digest. */
  hasRevoked: boolean;
  /** The bond held for the attester, in wei. */
  bond: bigint;
  /** Where a withdrawal sends the bond (zero address when there is no record). */
  beneficiary: Address;
  /** When the bond becomes withdrawable (Unix seconds), or null when not unbonding. */
  withdrawableAt: bigint | null;
  /** The registry's minimum bond, in wei. */
  minBond: bigint;
  /** The registry's unbonding period, in seconds. */
  unbondingPeriod: bigint;
  /** Whether signatures by this key currently verify on chain (registered, not unbonding, bond >= minBond). */
  active: boolean;
  /** Whether `withdraw` would succeed in the next block: unbonding, a bond to send, and the delay over. */
  withdrawable: boolean;
};

export type GetAttesterStatusErrorType = RegistryErrorType | Error;

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
