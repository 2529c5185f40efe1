import type { Address } from "viem";

import { RegistryNotDeployedError } from "../../errors/registry";
import type { RegistryPublicClient } from "../types";
import { toRegistryError } from "./toRegistryError";

/**
 * Throws `RegistryNotDeployedError` when the address holds no code. Calls to an account without code "succeed" with
 * empty return data, so a payable write would silently send ether to it: check before every call.
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
}
