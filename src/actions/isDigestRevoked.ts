import type { Address, Hash } from "viem";

import { attestationRegistryAbi } from "../abi/attestationRegistryAbi";
import type { RegistryErrorType } from "../errors/registry";
import type { RpcErrorType } from "../errors/rpc";
import { assertDigest } from "./internal/assertDigest";
import { assertRegistryDeployed } from "./internal/assertRegistryDeployed";
import { toRegistryError } from "./internal/toRegistryError";
import type { RegistryPublicClient } from "./types";

export type IsDigestRevokedParameters = {
  /** A public client on the registry's chain. */
  publicClient: RegistryPublicClient;
  /** The registry address. */
  registry: Address;
  /** The attester whose revocations are consulted (revocation is per attester). */
  attester: Address;
  /** The EIP-712 digest (`hashAttestation`). */
  digest: Hash;
};

export type IsDigestRevokedReturnType = boolean;

export type IsDigestRevokedErrorType = RegistryErrorType | RpcErrorType | Error;

/**
 * Whether `attester` has revoked `digest` on the registry.
 *
 * @param parameters - {@link IsDigestRevokedParameters}
 * @returns `true` if revoked. {@link IsDigestRevokedReturnType}
 *
 * @example
 * import { createPublicClient, http } from "viem";
 * import { isDigestRevoked } from "./actions/isDigestRevoked";
 *
 * const publicClient = createPublicClient({ transport: http("http://127.0.0.1:8545") });
 * const revoked = await isDigestRevoked({ publicClient, registry, attester, digest });
 */
export async function isDigestRevoked({
  publicClient,
  registry,
  attester,
  digest,
}: IsDigestRevokedParameters): Promise<IsDigestRevokedReturnType> {
  assertDigest(digest);
  await assertRegistryDeployed({ publicClient, registry });
  try {
    return await publicClient.readContract({
      address: registry,
      abi: attestationRegistryAbi,
      functionName: "isRevoked",
      args: [attester, digest],
    });
  } catch (error) {
    throw toRegistryError(error, {});
  }
}
