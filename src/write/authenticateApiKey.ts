import { timingSafeEqual } from "node:crypto";
import type { Kysely } from "kysely";
import { API_KEY_MAX_LENGTH, API_KEY_MIN_LENGTH, API_KEY_PATTERN } from "../config/parseApiKeys";
import { UnauthorizedError } from "../errors/auth";
import { findApiKeyBySha256 } from "../storage/apiKeys";
import type { Database } from "../storage/schema";
import { hashApiKey } from "./hashApiKey";

export type AuthenticateApiKeyParameters = {
  /** The key as presented (the Bearer token), or undefined when none was sent. */
  key: string | undefined;
};
/** Who is writing: the key's id (what a write records) and its owner (`env` or a wallet address). */
export type AuthenticateApiKeyReturnType = { id: string; owner: string; label: string | null };
export type AuthenticateApiKeyErrorType = UnauthorizedError;

/**
 * Authenticates an API key against the store: hashes it (SHA-256), finds the row by the hash, compares the stored
 * digest with `crypto.timingSafeEqual`, and refuses a revoked key. The key itself is never stored, logged or returned.
 *
 * The lookup is by the digest, so what an index lookup's timing could reveal is about a hash of the presented key,
 * not about any stored key; the comparison of the digests is constant time.
 *
 * @param context the store's query layer.
 * @param {@link AuthenticateApiKeyParameters}
 * @returns the key's id, owner and label.
 * @throws {@link UnauthorizedError} (`UNAUTHORIZED`) when the key is missing, malformed, unknown or revoked.
 * @example
 * import { authenticateApiKey } from "./src/write/authenticateApiKey";
 * const { id } = await authenticateApiKey({ db }, { key: bearerToken });
 */
export async function authenticateApiKey(
  { db }: { db: Kysely<Database> },
  { key }: AuthenticateApiKeyParameters,
): Promise<AuthenticateApiKeyReturnType> {
  if (key === undefined || key === "") throw new UnauthorizedError({ problem: "missing" });
  if (key.length < API_KEY_MIN_LENGTH || key.length > API_KEY_MAX_LENGTH || !API_KEY_PATTERN.test(key)) {
    throw new UnauthorizedError({ problem: "malformed" });
  }
  const digest = hashApiKey({ key });
  const row = await findApiKeyBySha256(db, digest);
  const stored = Buffer.from(row?.key_sha256 ?? "", "hex");
  const presented = Buffer.from(digest, "hex");
  // Compared even though the lookup matched on it: the check does not rest on how the database compares text.
  if (row === undefined || stored.length !== presented.length || !timingSafeEqual(stored, presented)) {
    throw new UnauthorizedError({ problem: "unknown" });
  }
  if (row.revoked_at !== null) throw new UnauthorizedError({ problem: "revoked" });
  return { id: row.id, owner: row.owner, label: row.label };
}
