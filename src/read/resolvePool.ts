import { AmbiguousPoolError, PoolNotFoundError } from "../errors/poolLookup";
import { formatPoolId, type InvalidPoolIdError, parsePoolId } from "@attestation-registry/sdk";
import { findPoolChains } from "../storage/pools";
import type { ReadContext } from "./context";

export type ResolvePoolParameters = {
  /** Any of the three accepted shapes. */
  id: string;
  /** The request field that holds the id, named in an `INVALID_POOL_ID` error. Default `"pool"`. */
  field?: string;
};
export type ResolvePoolReturnType = { chainId: number; address: `0x${string}`; id: string };
export type ResolvePoolErrorType = InvalidPoolIdError | PoolNotFoundError | AmbiguousPoolError;

/**
 * Resolves a pool identifier to one tracked pool. A bare address must be tracked on exactly one chain.
 *
 * @param context the {@link ReadContext}.
 * @param {@link ResolvePoolParameters}
 * @returns the pool's chain, address and qualified id.
 * @throws `InvalidPoolIdError` (malformed), {@link PoolNotFoundError} (not tracked), {@link AmbiguousPoolError}
 * (a bare address tracked on several chains; `candidates` lists the qualified ids).
 */
export async function resolvePool(
  { db }: Pick<ReadContext, "db">,
  { id, field }: ResolvePoolParameters,
): Promise<ResolvePoolReturnType> {
  const ref = parsePoolId({ id, field });
  const chains = await findPoolChains(db, ref.address);
  if (ref.chainId !== null) {
    const qualified = formatPoolId({ chainId: ref.chainId, address: ref.address });
    if (!chains.includes(ref.chainId)) throw new PoolNotFoundError({ pool: qualified });
    return { chainId: ref.chainId, address: ref.address, id: qualified };
  }
  if (chains.length === 0) throw new PoolNotFoundError({ pool: ref.address });
  if (chains.length > 1) {
    const candidates = chains.map((chainId) => formatPoolId({ chainId, address: ref.address }));
    throw new AmbiguousPoolError({ address: ref.address, candidates });
  }
  return { chainId: chains[0], address: ref.address, id: formatPoolId({ chainId: chains[0], address: ref.address }) };
}
