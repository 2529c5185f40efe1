import { getAddress, type Address } from "viem";

export type GetAttesterInfoParameters = {
  /** The service's own signer (any case). */
  address: string;
  /** The registry its v2 attestations are bound to, if any. */
  registry: { chainId: number; address: string } | null;
};

/** The expected signer as every surface serves it (`GET /api/v1/attester`, the MCP tool `get_attester`). */
export type AttesterInfo = {
  /** EIP-55: the authoritative expected signer of every attestation the service serves. */
  attester: Address;
  scheme: "eip191-v1";
  registry: { chainId: number; address: Address } | null;
};
export type GetAttesterInfoReturnType = AttesterInfo;

/**
 * The attester description every surface serves: the address checksummed, the signing scheme, and the registry (its
 * address checksummed) or null. Pure: the address comes from the process root (the key's address, never the key).
 *
 * @param {@link GetAttesterInfoParameters}
 * @returns {@link AttesterInfo}
 * @example
 * import { getAttesterInfo } from "./read/getAttesterInfo";
 * getAttesterInfo({ address: "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", registry: null });
 * // { attester: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", scheme: "eip191-v1", registry: null }
 */
export function getAttesterInfo({ address, registry }: GetAttesterInfoParameters): GetAttesterInfoReturnType {
  return {
    attester: getAddress(address.toLowerCase()),
    scheme: "eip191-v1",
    registry:
      registry === null ? null : { chainId: registry.chainId, address: getAddress(registry.address.toLowerCase()) },
  };
}
