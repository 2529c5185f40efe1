import type { Address } from "viem";

import { attestationRegistryAbi } from "../../abi/attestationRegistryAbi";
import { NotARegistryError, RegistryNotDeployedError, RpcUnreachableError } from "../../errors/rpc";
import type { RegistryPublicClient } from "../types";
import { toRegistryError } from "./toRegistryError";

/** The ERC-5267 domain name the registry's constructor sets. */
const REGISTRY_DOMAIN_NAME = "AttestationRegistry";

/**
 * Throws `RegistryNotDeployedError` when the address holds no code, and `NotARegistryError` when the contract's
 * ERC-5267 `eip712Domain()` does not name an AttestationRegistry. Calls to an account without code (or to a contract
 * that ignores unknown calls) "succeed", so a payable write would silently send ether to it: check before every call.
 */
export async function assertRegistryDeployed({
  publicClient,
  registry,
}: {
  publicClient: RegistryPublicClient;
  registry: Address;
}): Promise<void> {
  let code: string | undefined;
  try {
    code = await publicClient.getCode({ address: registry });
  } catch (error) {
    throw toRegistryError(error, {});
  }
  if (code === undefined || code === "0x") {
    let chainId: number | undefined = publicClient.chain?.id;
    if (chainId === undefined) chainId = await publicClient.getChainId().catch(() => undefined);
    throw new RegistryNotDeployedError({ registry, chainId });
  }
  let name: string;
  try {
    [, name] = await publicClient.readContract({
      address: registry,
      abi: attestationRegistryAbi,
      functionName: "eip712Domain",
    });
  } catch (error) {
    const mapped = toRegistryError(error, {});
    if (mapped instanceof RpcUnreachableError) throw mapped;
    throw new NotARegistryError({ registry, cause: error instanceof Error ? error : undefined });
  }
  if (name !== REGISTRY_DOMAIN_NAME) throw new NotARegistryError({ registry, name });
}
