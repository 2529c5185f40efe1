import { InvalidCursorError } from "../../errors/market";

/**
 * A pool's claims' cursor: the `issuedAt` (Unix seconds) the next page starts below, base64url behind a version tag
 * (`p1.<issuedAt>`). Opaque to clients.
 */
export function encodePoolClaimsCursor(before: number): string {
  return Buffer.from(`p1.${before}`, "utf8").toString("base64url");
}

/** Reads a cursor back; anything {@link encodePoolClaimsCursor} did not produce is an {@link InvalidCursorError}. */
export function decodePoolClaimsCursor(cursor: string, field = "cursor"): number {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(cursor)) throw new InvalidCursorError({ field });
  const match = /^p1\.([1-9][0-9]{0,15})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  const before = match ? Number(match[1]) : NaN;
  if (!Number.isSafeInteger(before) || encodePoolClaimsCursor(before) !== cursor)
    throw new InvalidCursorError({ field });
  return before;
}
