import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { InvalidApiKeyParameterError, TooManyApiKeysError } from "../errors/auth";
import { KEYS_CREATED_PER_DAY_FACTOR, insertApiKeyUnderCap } from "../storage/apiKeys";
import type { Database } from "../storage/schema";
import { generateApiKey } from "./generateApiKey";
import { hashApiKey } from "./hashApiKey";

export type CreateApiKeyParameters = {
  /** The signed-in wallet that owns the key (any case; stored lower-cased). */
  owner: string;
  /** A name for the owner's list, at most 100 characters. */
  label?: string | null;
  /** `MAX_KEYS_PER_WALLET`: the keys the wallet may hold at once, revoked ones not counted. Default 10. */
  maxKeys?: number;
};

/** `MAX_KEYS_PER_WALLET`'s default (docs/security.md#keys-subscriptions-and-alerts). */
export const DEFAULT_MAX_KEYS_PER_WALLET = 10;
export type CreateApiKeyReturnType = {
  id: string;
  /** The key itself: show it once, it cannot be read back. */
  key: string;
  owner: string;
  label: string | null;
  createdAt: number;
};
export type CreateApiKeyErrorType = InvalidApiKeyParameterError | TooManyApiKeysError;

/**
 * Creates an API key for a signed-in wallet (the dapp's "create key"): a random key, of which only the SHA-256 is
 * stored, with the wallet as owner. The key works at once with the keyed routes, like an `API_KEYS` key. A wallet holds
 * at most `maxKeys` keys that are not revoked, and creates at most twice that many in 24 hours, revoked ones included
 * (counted and stored in one transaction, serialized per wallet).
 *
 * @param context the store's query layer and the clock (Unix seconds).
 * @param {@link CreateApiKeyParameters}
 * @returns the new key (once) with its id.
 * @throws {@link InvalidApiKeyParameterError} for an owner that is not a 0x address or a label over 100 characters;
 * {@link TooManyApiKeysError} when the wallet already holds `maxKeys` keys.
 * @example
 * import { createApiKey } from "./src/write/createApiKey";
 * const { id, key } = await createApiKey({ db, now }, { owner: session.address, label: "my bot" });
 */
export async function createApiKey(
  { db, now }: { db: Kysely<Database>; now: () => number },
  { owner, label = null, maxKeys = DEFAULT_MAX_KEYS_PER_WALLET }: CreateApiKeyParameters,
): Promise<CreateApiKeyReturnType> {
  if (typeof owner !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(owner)) {
    throw new InvalidApiKeyParameterError({
      field: "owner",
      message: "The owner must be a wallet address, 0x + 40 hex.",
    });
  }
  if (label !== null && (typeof label !== "string" || label.length > 100)) {
    throw new InvalidApiKeyParameterError({ field: "label", message: "The label must be at most 100 characters." });
  }
  const key = generateApiKey();
  const id = randomUUID();
  const createdAt = now();
  const row = { id, keySha256: hashApiKey({ key }), owner: owner.toLowerCase(), label, now: createdAt };
  const stored = await insertApiKeyUnderCap(db, row, maxKeys);
  if (stored === "limit") throw new TooManyApiKeysError({ limit: maxKeys });
  if (stored === "daily-limit") {
    throw new TooManyApiKeysError({ limit: maxKeys, perDay: maxKeys * KEYS_CREATED_PER_DAY_FACTOR });
  }
  return { id, key, owner: owner.toLowerCase(), label, createdAt };
}
