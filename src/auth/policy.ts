/**
 * The limits of Sign-In with Ethereum on this service (docs/sign-in.md#lifetimes). Durations in seconds.
 */

/** A nonce from `GET /auth/nonce` can be used for this long, once. */
export const NONCE_TTL_S = 600;
/** How far in the future a message's `Issued At` may lie (a device clock running ahead). */
export const ISSUED_AT_SKEW_S = 300;
/**
 * How far in the past a message's `Issued At` may lie: a nonce's lifetime plus the clock skew. A message is signed
 * right after its nonce is issued, so an older one is a replay of an old signature with a fresh nonce.
 */
export const MAX_ISSUED_AGE_S = NONCE_TTL_S + ISSUED_AT_SKEW_S;
/** A message whose `Expiration Time` is further ahead than this is refused. */
export const MAX_EXPIRATION_S = 7 * 86_400;
/** Where a page request without a session is sent, and where sign-in returns when no safe `next` is given. */
export const SIGN_IN_PATH = "/app/sign-in";
export const DEFAULT_NEXT_PATH = "/app/pools";
