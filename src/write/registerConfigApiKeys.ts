import type { Kysely } from "kysely";
import { addConfigApiKeys, type AddConfigApiKeysResult } from "../storage/apiKeys";
import type { Database } from "../storage/schema";
import { hashApiKey } from "./hashApiKey";

export type RegisterConfigApiKeysParameters = {
  /** Every key the configuration holds (`API_KEYS`, plus the demo key in demo mode), each with a label for humans. */
  keys: readonly { key: string; label: string }[];
};
export type RegisterConfigApiKeysReturnType = AddConfigApiKeysResult;
export type RegisterConfigApiKeysErrorType = Error;

/**
 * Adds the configuration's keys (owner `env`) to the store, by their SHA-256. Only adds (docs/keys.md#configuration): a
 * start never revokes a key another process's configuration names, and never restores a key revoked with `attest keys
 * revoke` (it is counted in `revoked` so the start can say so). Keys a wallet created are not touched. Run it at every
 * start, before serving.
 *
 * @param context the store's query layer and the clock (Unix seconds).
 * @param {@link RegisterConfigApiKeysParameters}
 * @returns how many of the given keys were added, were already there, or are revoked (and stay so).
 * @example
 * import { registerConfigApiKeys } from "./src/write/registerConfigApiKeys";
 * const keys = config.apiKeys.map((key, i) => ({ key, label: `API_KEYS #${i + 1}` }));
 * await registerConfigApiKeys({ db, now }, { keys });
 */
export async function registerConfigApiKeys(
  { db, now }: { db: Kysely<Database>; now: () => number },
  { keys }: RegisterConfigApiKeysParameters,
): Promise<RegisterConfigApiKeysReturnType> {
  const hashed = new Map<string, string>();
  for (const { key, label } of keys) {
    const digest = hashApiKey({ key });
    if (!hashed.has(digest)) hashed.set(digest, label);
  }
  return addConfigApiKeys(db, {
    keys: [...hashed].map(([keySha256, label]) => ({ keySha256, label })),
    now: now(),
  });
}
