import { formatPoolId } from "@attestation-registry/sdk";
import type { PoolRecord } from "../../storage/pools";

/** Who a pool is, as every surface names it: the qualified id first, then its chain, address and labels. */
export type PoolIdentity = {
  /** `eip155:<chainId>:<address>`. */
  id: string;
  chainId: number;
  /** Lower case. */
  address: string;
  symbol: string;
  protocol: string;
  kind: "amm" | "lending";
};

/** The {@link PoolIdentity} of a stored pool. */
export function poolIdentity(pool: PoolRecord): PoolIdentity {
  const { chainId } = pool;
  return {
    id: formatPoolId({ chainId, address: pool.address }),
    chainId,
    address: pool.address.toLowerCase(),
    symbol: pool.symbol,
    protocol: pool.protocol,
    kind: pool.kind,
  };
}
