import { createHash, randomBytes } from "node:crypto";

/** A session id as the cookie carries it: 32 random bytes in base64url (43 characters). */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/**
 * A new session id: 32 bytes from `crypto.randomBytes`, base64url. It is the cookie's value and is never stored: the
 * store keeps {@link hashSessionId} of it, so a copy of the database signs nobody in.
 *
 * @returns the id.
 * @example
 * import { createSessionId } from "./src/auth/sessionId";
 * const id = createSessionId(); // "q3V…" (43 characters)
 */
export function createSessionId(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * The SHA-256 (hex) of a session id: the store's key and the session's public handle (`request.session.id`).
 *
 * @param id the cookie's value.
 * @returns 64 lower-case hex digits.
 * @example
 * import { hashSessionId } from "./src/auth/sessionId";
 * hashSessionId("q3V…"); // "5b1f…"
 */
export function hashSessionId(id: string): string {
  return createHash("sha256").update(id, "utf8").digest("hex");
}

/**
 * Whether a cookie value has the shape of a session id (anything else is not looked up).
 *
 * @param value the cookie's value.
 * @returns true for 43 base64url characters.
 * @example
 * import { isSessionIdFormat } from "./src/auth/sessionId";
 * isSessionIdFormat("x"); // false
 */
export function isSessionIdFormat(value: unknown): value is string {
  return typeof value === "string" && SESSION_ID.test(value);
}
