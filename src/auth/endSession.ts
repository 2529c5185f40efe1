import { deleteSession } from "../storage/sessions";
import { hashSessionId, isSessionIdFormat } from "./sessionId";
import type { AuthContext } from "./types";

/**
 * Signs out: deletes the session a cookie value names, so every copy of that cookie stops working at once.
 *
 * @param context the store (the clock is not used).
 * @param sessionId the cookie's value, if any.
 * @returns whether a session was ended (false for no cookie, an unknown one, or one already ended).
 * @example
 * import { endSession } from "./src/auth/endSession";
 * await endSession({ db, now }, { sessionId: request.cookies.attest_session });
 */
export async function endSession({ db }: AuthContext, { sessionId }: { sessionId: unknown }): Promise<boolean> {
  if (!isSessionIdFormat(sessionId)) return false;
  return deleteSession(db, hashSessionId(sessionId));
}
