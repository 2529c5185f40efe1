import { listApiKeys } from "../storage/apiKeys";
import type { ReadContext } from "./context";
import { checkWalletAddress } from "./internal/checkWalletAddress";

/** One of a wallet's API keys as the dapp lists it: never the key, never its hash. */
export type WalletApiKey = {
  id: string;
  label: string | null;
  /** Unix seconds. */
  createdAt: number;
  /** Unix seconds, or null while the key works. */
  revokedAt: number | null;
};

export type ListWalletApiKeysReturnType = { keys: WalletApiKey[] };

/**
 * The API keys a signed-in wallet created (owner: its lower-case address), oldest first, revoked ones included.
 *
 * @param context the {@link ReadContext} (only `db` is read).
 * @param parameters `{ address }`: the wallet, any case.
 * @returns {@link ListWalletApiKeysReturnType}
 * @throws `InvalidParameterError` for an address that is not 0x + 40 hex.
 * @example
 * import { listWalletApiKeys } from "./read/listWalletApiKeys";
 * const { keys } = await listWalletApiKeys(context, { address: session.address });
 */
export async function listWalletApiKeys(
  { db }: Pick<ReadContext, "db">,
  { address }: { address: string },
): Promise<ListWalletApiKeysReturnType> {
  const rows = await listApiKeys(db, checkWalletAddress(address));
  return {
    keys: rows.map((row) => ({
      id: row.id,
      label: row.label,
      createdAt: Number(row.created_at),
      revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
    })),
  };
}
