import { InvalidCursorError } from "../../errors/market";

/**
 * The model claims' cursor: when the claims were computed (Unix seconds) and the index of the next claim, base64url
 * behind a version tag (`m1.<computedAt>.<offset>`). Opaque to clients. A cursor of claims since recomputed is refused
 * rather than mixing two evaluations in one listing.
 */
export function encodeModelClaimsCursor(computedAt: number, offset: number): string {
  return Buffer.from(`m1.${computedAt}.${offset}`, "utf8").toString("base64url");
}

/** Reads a cursor back; anything {@link encodeModelClaimsCursor} did not produce is an {@link InvalidCursorError}. */
export function decodeModelClaimsCursor(cursor: string, field = "cursor"): { computedAt: number; offset: number } {
  if (!/^[A-Za-z0-9_-]{1,60}$/.test(cursor)) throw new InvalidCursorError({ field });
  const match = /^m1\.(0|[1-9][0-9]{0,15})\.([1-9][0-9]{0,15})$/.exec(
    Buffer.from(cursor, "base64url").toString("utf8"),
  );
  const computedAt = match ? Number(match[1]) : NaN;
  const offset = match ? Number(match[2]) : NaN;
  if (
    !Number.isSafeInteger(computedAt) ||
    !Number.isSafeInteger(offset) ||
    encodeModelClaimsCursor(computedAt, offset) !== cursor
  ) {
    throw new InvalidCursorError({ field });
  }
  return { computedAt, offset };
}
