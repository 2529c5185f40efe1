import type { Selectable } from "kysely";

/**
 * The tables of the database (`./schema.ts`) that belong to callers rather than to the market: the API keys of the
 * keyed writes and their idempotency records, and the dapp's Sign-In with Ethereum nonces and sessions.
 */

/** API keys for the keyed writes: only the SHA-256 of a key is stored. */
export interface ApiKeysTable {
  id: string;
  key_sha256: string;
  /** `env` (from API_KEYS) or the wallet address that created it. */
  owner: string;
  label: string | null;
  created_at: number;
  revoked_at: number | null;
}

/** The first answer to a keyed write with an `Idempotency-Key`, replayed for a retry. */
export interface IdempotencyKeysTable {
  api_key_id: string;
  idempotency_key: string;
  /** SHA-256 of the request body: the same key with another body is refused. */
  request_sha256: string;
  status: number;
  response_json: string;
  created_at: number;
}

/** Sign-In with Ethereum nonces the service issued: single use (deleted when a sign-in names one), expiring. */
export interface SiweNoncesTable {
  /** Letters and digits from `crypto.randomBytes`. */
  nonce: string;
  created_at: number;
  expires_at: number;
}

/** The dapp's server-side sessions (migration 004). Deleting a row ends the session for every copy of its cookie. */
export interface SessionsTable {
  /** SHA-256 (hex) of the cookie's random id: the id itself is never stored. */
  id_sha256: string;
  /** The signed-in wallet, lower case. */
  address: string;
  /** The chain id of the signed message. */
  chain_id: number;
  created_at: number;
  expires_at: number;
}

export type ApiKey = Selectable<ApiKeysTable>;
