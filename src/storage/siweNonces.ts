import type { Kysely } from "kysely";
import type { Database } from "./schema";

/**
 * Sign-In with Ethereum nonces: issued by `GET /auth/nonce`, consumed (deleted) by the first sign-in that names one,
 * whatever its outcome. Times are Unix seconds.
 */

/** Stores a new nonce. */
export async function insertSiweNonce(
  db: Kysely<Database>,
  nonce: { nonce: string; createdAt: number; expiresAt: number },
): Promise<void> {
  await db
    .insertInto("siwe_nonces")
    .values({ nonce: nonce.nonce, created_at: nonce.createdAt, expires_at: nonce.expiresAt })
    .execute();
}

/**
 * Deletes `nonce` and returns its expiry, or undefined when it is not stored (never issued, or already consumed). One
 * statement, `DELETE … RETURNING`: of two concurrent calls with the same nonce, exactly one gets it back (PostgreSQL
 * makes the second wait for the first's row lock and then finds no row; SQLite runs writers one at a time).
 */
export async function consumeSiweNonce(
  db: Kysely<Database>,
  nonce: string,
): Promise<{ createdAt: number; expiresAt: number } | undefined> {
  const row = await db
    .deleteFrom("siwe_nonces")
    .where("nonce", "=", nonce)
    .returning(["created_at", "expires_at"])
    .executeTakeFirst();
  return row === undefined ? undefined : { createdAt: Number(row.created_at), expiresAt: Number(row.expires_at) };
}

/** Deletes the nonces that expired at or before `now`. Returns how many. */
export async function deleteExpiredSiweNonces(db: Kysely<Database>, now: number): Promise<number> {
  const result = await db.deleteFrom("siwe_nonces").where("expires_at", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
