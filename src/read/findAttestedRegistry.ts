import { getAddress, isAddress, type Address } from "viem";
import { getLatestExpiryByPool, getLatestStoredAttestation } from "../storage/attestations";
import type { ReadContext } from "./context";

export type FindAttestedRegistryReturnType = { chainId: number; address: Address } | null;

/**
 * The registry the store's attestations are bound to: the EIP-712 domain (chain and `verifyingContract`) of the v2
 * block of the latest attestation of the pool whose attestation expires last; null when that attestation has no v2
 * block (no registry was configured when it was issued) or nothing is attested. For a process that serves the store
 * without the service's configuration of the registry (`attest mcp` over the demo's data): the service signs its v2
 * blocks for the registry it serves at `GET /api/v1/attester`.
 *
 * @param context the {@link ReadContext} (only `db` is read).
 * @returns the registry, or null.
 * @example
 * import { findAttestedRegistry } from "./read/findAttestedRegistry";
 * const registry = config.registry ?? (await findAttestedRegistry(store));
 */
export async function findAttestedRegistry({ db }: Pick<ReadContext, "db">): Promise<FindAttestedRegistryReturnType> {
  const expiries = await getLatestExpiryByPool(db);
  if (expiries.length === 0) return null;
  const last = expiries.reduce((a, b) => (b.expiry > a.expiry ? b : a));
  const attestation = await getLatestStoredAttestation(db, last.chainId, last.address);
  if (attestation?.eip712Json === null || attestation?.eip712Json === undefined) return null;
  const domain = (JSON.parse(attestation.eip712Json) as { domain?: { chainId?: unknown; verifyingContract?: unknown } })
    .domain;
  const chainId = Number(domain?.chainId);
  const address = domain?.verifyingContract;
  if (
    !Number.isSafeInteger(chainId) ||
    chainId < 1 ||
    typeof address !== "string" ||
    !isAddress(address, { strict: false })
  )
    return null;
  return { chainId, address: getAddress(address.toLowerCase()) };
}
