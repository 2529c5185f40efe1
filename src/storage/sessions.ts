import type { Kysely } from "kysely";
import type { Database } from "./schema";

/**
 * The dapp's server-side sessions, keyed by the SHA-256 (hex) of the cookie's random id. A session lives while its row
 * exists and `expires_at` is later than now; deleting the row ends it for every copy of the cookie. Times are Unix
 * seconds; addresses are stored lower case.
 */

/** A stored session. */
export type SessionRow = { idSha256: string; address: string; chainId: number; createdAt: number; expiresAt: number };

/** Stores a new session. */
export async function insertSession(db: Kysely<Database>, session: SessionRow): Promise<void> {
  await db
    .insertInto("sessions")
    .values({
      id_sha256: session.idSha256,
      address: session.address.toLowerCase(),
      chain_id: session.chainId,
      created_at: session.createdAt,
      expires_at: session.expiresAt,
    })
    .execute();
}

/** The session whose id hashes to `idSha256`, if it is stored and expires after `now`. */
export async function findLiveSession(
  db: Kysely<Database>,
  parameters: { idSha256: string; now: number },
): Promise<SessionRow | undefined> {
  const row = await db
    .selectFrom("sessions")
    .selectAll()
    .where("id_sha256", "=", parameters.idSha256)
    .where("expires_at", ">", parameters.now)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return {
    idSha256: row.id_sha256,
    address: row.address,
    chainId: Number(row.chain_id),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}

/** Deletes one session. Returns false when there was none. */
export async function deleteSession(db: Kysely<Database>, idSha256: string): Promise<boolean> {
  const result = await db.deleteFrom("sessions").where("id_sha256", "=", idSha256).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Deletes the sessions that expired at or before `now`. Returns how many. */
export async function deleteExpiredSessions(db: Kysely<Database>, now: number): Promise<number> {
  const result = await db.deleteFrom("sessions").where("expires_at", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
