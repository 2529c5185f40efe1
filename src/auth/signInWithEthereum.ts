import { SiweNonceInvalidError, type SiweNonceInvalidErrorType } from "../errors/siwe";
import { deleteExpiredSessions, deleteSession, insertSession } from "../storage/sessions";
import { consumeSiweNonce } from "../storage/siweNonces";
import { parseDateTime } from "./internal/rfc3339";
import { parseSiweMessage } from "./parseSiweMessage";
import { ISSUED_AT_SKEW_S, MAX_EXPIRATION_S, MAX_ISSUED_AGE_S } from "./policy";
import { createSessionId, hashSessionId, isSessionIdFormat } from "./sessionId";
import type { AuthContext, Session } from "./types";
import { verifySiweMessage, type VerifySiweMessageErrorType } from "./verifySiweMessage";

export type SignInWithEthereumParameters = {
  /** The exact text the wallet signed. */
  message: unknown;
  /** The wallet's `personal_sign` signature. */
  signature: unknown;
  /** The service's own origin (`PUBLIC_ORIGIN`): the message's domain and URI must be on it. */
  origin: string;
  /** The chain ids a message may name. */
  chainIds: readonly number[];
  /** The session's lifetime in seconds (capped by the message's Expiration Time). */
  sessionTtlS: number;
  /** The id in the browser's cookie before this sign-in, if any: that session is ended (a new id at every login). */
  previousSessionId?: string | undefined;
};
export type SignInWithEthereumReturnType = {
  /** The new session's id: the cookie's value. Never stored, never logged. */
  sessionId: string;
  session: Session;
};
export type SignInWithEthereumErrorType = VerifySiweMessageErrorType | SiweNonceInvalidErrorType;

/**
 * Signs a wallet in (EIP-4361, externally owned accounts only) and opens a server-side session:
 *
 * 1. parse the message strictly (400 `INVALID_SIWE_MESSAGE`, nothing consumed);
 * 2. consume its nonce, atomically: from here on the nonce is spent whatever happens next, so a refused attempt
 *    cannot be retried with it and two concurrent attempts with one nonce give at most one session;
 * 3. {@link verifySiweMessage} on the exact text: ecrecover to the message's address, then the domain, scheme and URI
 *    against `origin`, the chain, the times, the issued-at skew and the expiration cap;
 * 4. store a new session under the SHA-256 of a fresh random id, ending the browser's previous one.
 *
 * @param context the store and the clock.
 * @param {@link SignInWithEthereumParameters}
 * @returns the new session and its id (for the cookie).
 * @throws the first failed check's error, each with its own `code` ({@link SignInWithEthereumErrorType}).
 * @example
 * import { signInWithEthereum } from "./src/auth/signInWithEthereum";
 * const { sessionId, session } = await signInWithEthereum({ db, now }, {
 *   message, signature, origin: "http://127.0.0.1:8080", chainIds: [1], sessionTtlS: 86_400,
 * });
 */
export async function signInWithEthereum(
  { db, now }: AuthContext,
  parameters: SignInWithEthereumParameters,
): Promise<SignInWithEthereumReturnType> {
  const { signature, origin, chainIds, sessionTtlS, previousSessionId } = parameters;
  const message = parameters.message as string;
  const fields = parseSiweMessage({ message });
  const consumed = await consumeSiweNonce(db, fields.nonce);
  const time = now();
  if (consumed === undefined) throw new SiweNonceInvalidError({ reason: "unknown or already used" });
  if (consumed.expiresAt <= time) throw new SiweNonceInvalidError({ reason: "expired" });

  const own = new URL(origin);
  const { address } = await verifySiweMessage({
    message,
    signature,
    time: new Date(time * 1000),
    domain: own.host,
    scheme: own.protocol.slice(0, -1),
    uriOrigin: own.origin,
    nonce: fields.nonce,
    chainIds,
    issuedAtSkewS: ISSUED_AT_SKEW_S,
    maxIssuedAgeS: MAX_ISSUED_AGE_S,
    maxExpirationS: MAX_EXPIRATION_S,
  });

  const messageEnd =
    fields.expirationTime === undefined
      ? Infinity
      : Math.floor((parseDateTime(fields.expirationTime) as number) / 1000);
  const expiresAt = Math.min(time + sessionTtlS, messageEnd);
  const sessionId = createSessionId();
  const idSha256 = hashSessionId(sessionId);
  await db.transaction().execute(async (tx) => {
    await deleteExpiredSessions(tx, time);
    if (isSessionIdFormat(previousSessionId)) await deleteSession(tx, hashSessionId(previousSessionId));
    await insertSession(tx, { idSha256, address, chainId: fields.chainId, createdAt: time, expiresAt });
  });
  return { sessionId, session: { id: idSha256, address, chainId: fields.chainId, expiresAt } };
}
