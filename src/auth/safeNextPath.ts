import { DEFAULT_NEXT_PATH } from "./policy";

/**
 * Where to go after signing in: `next` when it is a path on this site (starts with one `/`, no backslash, at most
 * 2000 characters, and only printable ASCII without space), otherwise {@link DEFAULT_NEXT_PATH}. `//evil.example`,
 * `/\evil.example`, `https://…` and `javascript:…` are never returned: no open redirect. The value goes out in a
 * `Location` header, so anything that cannot stand there is refused too: a control character (CR/LF, NUL), a space,
 * or any character beyond ASCII (`/😀` after the query is decoded: Node's `setHeader` throws on it, and Latin-1 it
 * would let through is not a URL). A path the browser sent percent-encoded stays percent-encoded, so every real page
 * path passes.
 *
 * @param next the requested path, e.g. a `next` query parameter (undefined when absent).
 * @returns a same-site relative path.
 * @example
 * import { safeNextPath } from "./src/auth/safeNextPath";
 * safeNextPath("/app/pools?sort=depth"); // "/app/pools?sort=depth"
 * safeNextPath("//evil.example/"); // "/app/pools"
 */
export function safeNextPath(next: unknown): string {
  if (typeof next !== "string" || next.length > 2000) return DEFAULT_NEXT_PATH;
  if (!next.startsWith("/") || next.startsWith("//") || next.includes("\\")) return DEFAULT_NEXT_PATH;
  // Printable ASCII only (0x21–0x7e): no control character, no space, nothing a header cannot carry.
  if (!/^[\x21-\x7e]+$/.test(next)) return DEFAULT_NEXT_PATH;
  return next;
}
