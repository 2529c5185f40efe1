import { formatPoolId } from "@attestation-registry/sdk";
import { listWatchlist } from "../storage/watchlist";
import type { ReadContext } from "./context";
import { checkWalletAddress } from "./internal/checkWalletAddress";

export type ListWalletWatchlistReturnType = {
  /** The starred pools' qualified ids (`eip155:<chainId>:<address>`), oldest star first. */
  pools: string[];
};

/**
 * The pools a signed-in wallet starred (its watchlist, kept server-side per wallet): never another wallet's.
 *
 * @param context the {@link ReadContext} (only `db` is read).
 * @param parameters `{ address }`: the wallet, any case.
 * @returns {@link ListWalletWatchlistReturnType}
 * @throws `InvalidParameterError` for an address that is not 0x + 40 hex.
 * @example
 * import { listWalletWatchlist } from "./read/listWalletWatchlist";
 * const { pools } = await listWalletWatchlist(context, { address: session.address });
 */
export async function listWalletWatchlist(
  { db }: Pick<ReadContext, "db">,
  { address }: { address: string },
): Promise<ListWalletWatchlistReturnType> {
  const rows = await listWatchlist(db, checkWalletAddress(address));
  return { pools: rows.map((row) => formatPoolId({ chainId: Number(row.chain_id), address: row.address })) };
}
