import type { Kysely } from "kysely";
import { revokeApiKey as revokeStoredApiKey } from "../storage/apiKeys";
import type { Database } from "../storage/schema";

export type RevokeApiKeyParameters = {
  /** The key's id. */
  id: string;
  /** Who asks: only the owner's own keys can be revoked (a wallet address, any case, or `env`). */
  owner: string;
};
/** True when the key was revoked now; false when the owner has no such key or it was already revoked. */
export type RevokeApiKeyReturnType = boolean;
export type RevokeApiKeyErrorType = Error;

/**
 * Revokes one of the owner's API keys: from then on it answers 401, and the requests it wrote keep naming its id.
 *
 * @param context the store's query layer and the clock (Unix seconds).
 * @param {@link RevokeApiKeyParameters}
 * @returns whether a key was revoked.
 * @example
 * import { revokeApiKey } from "./src/write/revokeApiKey";
 * await revokeApiKey({ db, now }, { id, owner: session.address });
 */
export async function revokeApiKey(
  { db, now }: { db: Kysely<Database>; now: () => number },
  { id, owner }: RevokeApiKeyParameters,
): Promise<RevokeApiKeyReturnType> {
  return revokeStoredApiKey(db, { id, owner: owner.toLowerCase(), now: now() });
}
