import { DEFAULT_NEXT_PATH } from "./policy";

/**
 * Where to go after signing in: `next` when it is a path on this site (starts with one `/`, no backslash, no control
 * character, at most 2000 characters), otherwise {@link DEFAULT_NEXT_PATH}. `//evil.example`, `/\evil.example`,
 * `https://…` and `javascript:…` are never returned: no open redirect.
 *
 * @param next the requested path, e.g. a `next` query parameter (undefined when absent).
 * @returns a same-site relative path.
 * @example
 * import { safeNextPath } from "./src/auth/safeNextPath";
 * safeNextPath("/app/pools?sort=depth"); // "/app/pools?sort=depth"
 * safeNextPath("//evil.example/"); // "/app/"
 */
export function safeNextPath(next: unknown): string {
  if (typeof next !== "string" || next.length > 2000) return DEFAULT_NEXT_PATH;
  if (!next.startsWith("/") || next.startsWith("//") || next.includes("\\")) return DEFAULT_NEXT_PATH;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(next)) return DEFAULT_NEXT_PATH;
  return next;
}
