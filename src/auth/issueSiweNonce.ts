import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../storage/schema";
import { deleteExpiredSiweNonces, insertSiweNonce } from "../storage/siweNonces";
import { NONCE_TTL_S } from "./policy";

export type IssueSiweNonceReturnType = {
  /** 32 hex digits: 128 bits from `crypto.randomBytes` (viem's `generateSiweNonce` uses `Math.random`). */
  nonce: string;
  /** Unix seconds. */
  expiresAt: number;
};
export type IssueSiweNonceErrorType = Error;

/**
 * Issues a sign-in nonce: random, stored server side, single use, expiring after {@link NONCE_TTL_S}. Expired nonces
 * are deleted on the way, so the table holds only what was issued in the last ten minutes.
 *
 * @param context the store's query layer and the clock (Unix seconds).
 * @returns the nonce and when it expires.
 * @example
 * import { issueSiweNonce } from "./src/auth/issueSiweNonce";
 * const { nonce } = await issueSiweNonce({ db, now: () => Math.floor(Date.now() / 1000) });
 */
export async function issueSiweNonce({
  db,
  now,
}: {
  db: Kysely<Database>;
  now: () => number;
}): Promise<IssueSiweNonceReturnType> {
  const createdAt = now();
  await deleteExpiredSiweNonces(db, createdAt);
  const nonce = randomBytes(16).toString("hex");
  const expiresAt = createdAt + NONCE_TTL_S;
  await insertSiweNonce(db, { nonce, createdAt, expiresAt });
  return { nonce, expiresAt };
}
