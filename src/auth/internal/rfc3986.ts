/**
 * RFC 3986 URI and authority grammar (§3), as regular expressions anchored at both ends, for the strict EIP-4361
 * parser. IP literals are checked by {@link isIpLiteral} (RFC 3986 §3.2.2: IPv6 or IPvFuture, no zone id).
 */

const UNRESERVED = "A-Za-z0-9\\-._~";
const SUB_DELIMS = "!$&'()*+,;=";
const PCT = "%[0-9A-Fa-f]{2}";
const PCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT})`;

/** `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`. */
export const SCHEME = "[A-Za-z][A-Za-z0-9+\\-.]*";
const USERINFO = `(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT})*`;
const REG_NAME = `(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT})*`;
const HOST = `(?:\\[[^\\]\\s]*\\]|${REG_NAME})`;
/** `authority = [ userinfo "@" ] host [ ":" port ]`, with groups userinfo, host and port. */
const AUTHORITY = `(?:(${USERINFO})@)?(${HOST})(?::([0-9]*))?`;
const QUERY_OR_FRAGMENT = `(?:${PCHAR}|[/?])*`;
const SEGMENT_NZ = `${PCHAR}+`;
const PATH_ABEMPTY = `(?:/${PCHAR}*)*`;
const URI = new RegExp(
  `^(${SCHEME}):` +
    `(?://${AUTHORITY}${PATH_ABEMPTY}|/(?:${SEGMENT_NZ}${PATH_ABEMPTY})?|${SEGMENT_NZ}${PATH_ABEMPTY}|)` +
    `(?:\\?${QUERY_OR_FRAGMENT})?(?:#${QUERY_OR_FRAGMENT})?$`,
);
const AUTHORITY_ONLY = new RegExp(`^${AUTHORITY}$`);
const PCHARS = new RegExp(`^${PCHAR}*$`);
/** EIP-4361 `statement`: RFC 3986 `reserved` and `unreserved` characters and the space, at least one. */
const STATEMENT = new RegExp(`^[${UNRESERVED}:/?#\\[\\]@${SUB_DELIMS} ]+$`);

const H16 = /^[0-9A-Fa-f]{1,4}$/;
const DEC_OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])";
const IPV4 = new RegExp(`^${DEC_OCTET}\\.${DEC_OCTET}\\.${DEC_OCTET}\\.${DEC_OCTET}$`);
const IPV_FUTURE = new RegExp(`^v[0-9A-Fa-f]+\\.[${UNRESERVED}${SUB_DELIMS}:]+$`);

/** The parts of an RFC 3986 authority. */
export type Authority = { userinfo: string | undefined; host: string; port: string | undefined };

/** Whether `text` is an RFC 3986 `URI` (absolute, with a scheme; a relative reference is not one). */
export function isUri(text: string): boolean {
  const match = URI.exec(text);
  if (match === null) return false;
  // The authority's host, when there is one (group 3), may be an IP literal: check it fully.
  const host = match[3];
  return host === undefined || !host.startsWith("[") || isIpLiteral(host);
}

/** Parses an RFC 3986 `authority`; null when it is not one. */
export function parseAuthority(text: string): Authority | null {
  const match = AUTHORITY_ONLY.exec(text);
  if (match === null) return null;
  const [, userinfo, host, port] = match;
  if (host.startsWith("[") && !isIpLiteral(host)) return null;
  return { userinfo, host, port };
}

/** Whether `text` is `*pchar` (an EIP-4361 `request-id`). */
export function isPchars(text: string): boolean {
  return PCHARS.test(text);
}

/** Whether `text` is an EIP-4361 `statement`: one or more of RFC 3986's reserved and unreserved characters or " ". */
export function isStatement(text: string): boolean {
  return STATEMENT.test(text);
}

/** `IP-literal = "[" ( IPv6address / IPvFuture ) "]"`. */
function isIpLiteral(text: string): boolean {
  if (!text.startsWith("[") || !text.endsWith("]")) return false;
  const inner = text.slice(1, -1);
  return IPV_FUTURE.test(inner) || isIpv6(inner);
}

/** RFC 3986 `IPv6address`: eight h16 groups, or fewer with one `::`, the last 32 bits optionally as IPv4. */
function isIpv6(text: string): boolean {
  let groups = text;
  let width = 8;
  const lastColon = text.lastIndexOf(":");
  if (lastColon === -1) return false;
  if (text.slice(lastColon + 1).includes(".")) {
    if (!IPV4.test(text.slice(lastColon + 1))) return false;
    // "::1.2.3.4": keep the "::" whole; "a:1.2.3.4": drop the separating colon too.
    groups = text.slice(0, text[lastColon - 1] === ":" ? lastColon + 1 : lastColon);
    width = 6;
  }
  const halves = groups.split("::");
  if (halves.length > 2) return false;
  const parts = halves.map((half) => (half === "" ? [] : half.split(":")));
  if (!parts.every((list) => list.every((group) => H16.test(group)))) return false;
  const count = parts[0].length + (parts[1]?.length ?? 0);
  return halves.length === 2 ? count < width : count === width;
}
