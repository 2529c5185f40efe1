import type { ReadContext } from "../read/context";
import { checkWalletAddress } from "../read/internal/checkWalletAddress";
import { resolvePool } from "../read/resolvePool";
import { unwatchPool, watchPool } from "../storage/watchlist";

/**
 * Stars (`watched: true`) or unstars a tracked pool on a signed-in wallet's watchlist. Returns the pool's qualified id.
 *
 * @throws the pool errors of `resolvePool` (an untracked pool is `POOL_NOT_FOUND`); `InvalidParameterError` for an
 * address that is not 0x + 40 hex.
 */
export async function setWatchlist(
  context: Pick<ReadContext, "db" | "now">,
  parameters: { address: string; pool: string; watched: boolean },
): Promise<string> {
  const owner = checkWalletAddress(parameters.address);
  const pool = await resolvePool(context, { id: parameters.pool });
  const entry = { owner, chainId: pool.chainId, address: pool.address };
  if (parameters.watched) await watchPool(context.db, { ...entry, now: context.now() });
  else await unwatchPool(context.db, entry);
  return pool.id;
}
