import { formatPoolId } from "../../lib/formatPoolId";
import type { Pool } from "../../storage/schema";

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

/** The {@link PoolIdentity} of a stored pool row. */
export function poolIdentity(row: Pool): PoolIdentity {
  const chainId = Number(row.chain_id);
  return {
    id: formatPoolId({ chainId, address: row.address }),
    chainId,
    address: row.address.toLowerCase(),
    symbol: row.symbol,
    protocol: row.protocol,
    kind: row.kind,
  };
}
