import type { Kysely } from "kysely";
import { syncConfigApiKeys, type SyncConfigApiKeysResult } from "../storage/apiKeys";
import type { Database } from "../storage/schema";
import { hashApiKey } from "./hashApiKey";

export type RegisterConfigApiKeysParameters = {
  /** Every key the configuration holds (`API_KEYS`, plus the demo key in demo mode), each with a label for humans. */
  keys: readonly { key: string; label: string }[];
};
export type RegisterConfigApiKeysReturnType = SyncConfigApiKeysResult;
export type RegisterConfigApiKeysErrorType = Error;

/**
 * Makes the store's configuration keys (owner `env`) exactly `keys`, by their SHA-256: new ones are added, a key
 * back in the configuration is restored, and a key no longer configured is revoked. Keys a wallet created are not
 * touched. Run it at every start, before serving.
 *
 * @param context the store's query layer and the clock (Unix seconds).
 * @param {@link RegisterConfigApiKeysParameters}
 * @returns how many keys were added, kept, restored and revoked.
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
  return syncConfigApiKeys(db, {
    keys: [...hashed].map(([keySha256, label]) => ({ keySha256, label })),
    now: now(),
  });
}
