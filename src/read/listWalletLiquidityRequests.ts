import {
  listLiquidityRequestsByKeyOwner,
  toLiquidityRequestView,
  type LiquidityRequestView,
} from "../storage/liquidityRequests";
import type { ReadContext } from "./context";
import { checkWalletAddress } from "./internal/checkWalletAddress";
import { checkInteger } from "./internal/checkInteger";

export type ListWalletLiquidityRequestsParameters = {
  /** The signed-in wallet (any case): the owner of the API keys that wrote the requests. */
  address: string;
  /** At most this many, newest first: 1–500, default 100. */
  limit?: number;
};

/** One of the wallet's own requests, in the keyed write's answer shape plus the label of the key that wrote it. */
export type WalletLiquidityRequest = LiquidityRequestView & {
  /** The label the wallet gave the key that wrote it. */
  keyLabel: string | null;
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
  const rows = await listLiquidityRequestsByKeyOwner(db, { owner: checkWalletAddress(address), limit });
  return {
    requests: rows.map((row) => ({ ...toLiquidityRequestView(row), keyLabel: row.key_label })),
  };
}
