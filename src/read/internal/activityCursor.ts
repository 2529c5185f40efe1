import { InvalidCursorError } from "../../errors/market";

/**
 * The activity feed's cursor: the id of the last event of a page, base64url-encoded behind a version tag
 * (`a1.<id>`). Opaque to clients; paging continues strictly below that id, so events that arrive meanwhile (with
 * higher ids) neither shift nor repeat the pages below.
 */
export function encodeActivityCursor(beforeId: number): string {
  return Buffer.from(`a1.${beforeId}`, "utf8").toString("base64url");
}

/**
 * Reads a cursor back to the id to page below. Anything {@link encodeActivityCursor} did not produce (bad base64url,
 * another version, a non-canonical or unsafe number, extra characters) is an {@link InvalidCursorError}.
 */
export function decodeActivityCursor(cursor: string, field = "cursor"): number {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(cursor)) throw new InvalidCursorError({ field });
  const match = /^a1\.([1-9][0-9]{0,15})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  const id = match ? Number(match[1]) : NaN;
  if (!Number.isSafeInteger(id) || encodeActivityCursor(id) !== cursor) throw new InvalidCursorError({ field });
  return id;
}
