import type { Kysely } from "kysely";
import type { Address } from "viem";
import type { Database } from "../storage/schema";

/**
 * The fields of an EIP-4361 (Sign-In with Ethereum) message, exactly as they are written in its text: timestamps stay
 * the strings that were signed (never re-printed from a `Date`), optional fields are absent when the text has none.
 */
export type SiweMessage = {
  /** The optional scheme before the domain (`https` in `https://example.com wants you…`). */
  scheme?: string;
  /** An RFC 3986 authority: host and optional port (and, in general, user information). */
  domain: string;
  /** The signer's address in EIP-55 checksum form. */
  address: Address;
  /** One line of text without a line break. */
  statement?: string;
  /** An RFC 3986 URI: the subject of the signing. */
  uri: string;
  version: "1";
  chainId: number;
  /** At least 8 letters and digits. */
  nonce: string;
  /** RFC 3339 date-time. */
  issuedAt: string;
  /** RFC 3339 date-time. */
  expirationTime?: string;
  /** RFC 3339 date-time. */
  notBefore?: string;
  /** RFC 3986 `*pchar` (may be empty). */
  requestId?: string;
  /** RFC 3986 URIs (an empty list when the text has a `Resources:` line and no item). */
  resources?: string[];
};

/** A live dapp session, as `request.session` carries it. */
export type Session = {
  /** The session's public handle: the SHA-256 (hex) of the cookie's value, never the value itself. */
  id: string;
  /** The signed-in wallet, EIP-55. */
  address: Address;
  /** The chain id of the message the wallet signed. */
  chainId: number;
  /** Unix seconds; the session ends then, or earlier on sign-out. */
  expiresAt: number;
};

/** What the sign-in functions are called with: the store and the clock (Unix seconds). */
export type AuthContext = { db: Kysely<Database>; now: () => number };
