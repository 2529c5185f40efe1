import { InvalidParameterError } from "../errors/market";
import { formatPoolId } from "../lib/formatPoolId";
import { listLiquidityRequestsByKeyOwner } from "../storage/liquidityRequests";
import type { ReadContext } from "./context";
import { checkInteger } from "./internal/checkInteger";

export type ListWalletLiquidityRequestsParameters = {
  /** The signed-in wallet (any case): the owner of the API keys that wrote the requests. */
  address: string;
  /** At most this many, newest first: 1–500, default 100. */
  limit?: number;
};

/** One of the wallet's own requests, in the keyed write's answer shape plus the label of the key that wrote it. */
export type WalletLiquidityRequest = {
  id: string;
  chainId: number;
  /** `eip155:<chainId>:<address>`, or null when the request names an asset. */
  pool: string | null;
  /** Lower-case token address, or null when the request names a pool. */
  asset: string | null;
  amountUsd: number;
  horizonDays: number;
  note: string | null;
  /** The id of the key that wrote it (never the key) and the label the wallet gave that key. */
  apiKeyId: string;
  keyLabel: string | null;
  /** Unix seconds. */
  createdAt: number;
};

export type ListWalletLiquidityRequestsReturnType = { requests: WalletLiquidityRequest[] };

/**
 * The liquidity requests a wallet made: those written through `POST /api/v1/liquidity-requests` with any API key the
 * wallet created in the dapp (revoked keys included), newest first. Requests written with configuration keys
 * (`API_KEYS`) belong to no wallet.
 *
 * @param context the {@link ReadContext} (only `db` is read).
 * @param {@link ListWalletLiquidityRequestsParameters}
 * @returns {@link ListWalletLiquidityRequestsReturnType}
 * @throws `InvalidParameterError` for a `limit` out of range or an address that is not 0x + 40 hex.
 * @example
 * import { listWalletLiquidityRequests } from "./read/listWalletLiquidityRequests";
 * const { requests } = await listWalletLiquidityRequests(context, { address: session.address });
 */
export async function listWalletLiquidityRequests(
  { db }: Pick<ReadContext, "db">,
  { address, limit = 100 }: ListWalletLiquidityRequestsParameters,
): Promise<ListWalletLiquidityRequestsReturnType> {
  checkInteger("limit", limit, 1, 500);
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) {
    throw new InvalidParameterError({ field: "address", value: address, expected: "a wallet address, 0x + 40 hex" });
  }
  const rows = await listLiquidityRequestsByKeyOwner(db, { owner: address.toLowerCase(), limit });
  return {
    requests: rows.map((row) => ({
      id: row.id,
      chainId: row.chain_id,
      pool: row.pool_address === null ? null : formatPoolId({ chainId: row.chain_id, address: row.pool_address }),
      asset: row.asset_address,
      amountUsd: row.amount_usd,
      horizonDays: row.horizon_days,
      note: row.note,
      apiKeyId: row.api_key_id,
      keyLabel: row.key_label,
      createdAt: row.created_at,
    })),
  };
}
