import { getAddress } from "viem";
import { findLiveSession } from "../storage/sessions";
import { hashSessionId, isSessionIdFormat } from "./sessionId";
import type { AuthContext, Session } from "./types";

/**
 * The live session a cookie value names, or null: no value, a value that is not a session id, an id the store does
 * not hold (never issued, signed out) or a session that has expired. The value is hashed before the lookup.
 *
 * @param context the store and the clock.
 * @param sessionId the cookie's value, if any.
 * @returns the session or null.
 * @example
 * import { readSession } from "./src/auth/readSession";
 * const session = await readSession({ db, now }, { sessionId: request.cookies.attest_session });
 */
export async function readSession(
  { db, now }: AuthContext,
  { sessionId }: { sessionId: unknown },
): Promise<Session | null> {
  if (!isSessionIdFormat(sessionId)) return null;
  const row = await findLiveSession(db, { idSha256: hashSessionId(sessionId), now: now() });
  if (row === undefined) return null;
  return { id: row.idSha256, address: getAddress(row.address), chainId: row.chainId, expiresAt: row.expiresAt };
}
