import { getAddress } from "viem";
import { InvalidSiweMessageError, type InvalidSiweMessageErrorType } from "../errors/siwe";
import { SCHEME, isPchars, isStatement, isUri, parseAuthority } from "./internal/rfc3986";
import { parseDateTime } from "./internal/rfc3339";
import type { SiweMessage } from "./types";

export type ParseSiweMessageParameters = {
  /** The message text exactly as the wallet signed it (lines separated by LF). */
  message: string;
};
export type ParseSiweMessageReturnType = SiweMessage;
export type ParseSiweMessageErrorType = InvalidSiweMessageErrorType;

const HEADER = new RegExp(`^(?:(${SCHEME})://)?(\\S*) wants you to sign in with your Ethereum account:$`);
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const NONCE = /^[A-Za-z0-9]{8,}$/;
const CHAIN_ID = /^(?:0|[1-9][0-9]*)$/;
const TIMESTAMPS = { issuedAt: "Issued At", expirationTime: "Expiration Time", notBefore: "Not Before" } as const;

/**
 * Parses an EIP-4361 message under the ABNF of the EIP, strictly: every line in its place and nothing after the last
 * one, LF only (a CR is refused), a domain that is an RFC 3986 authority with a host, an address in EIP-55 checksum
 * form (all lower case is refused), a one-line statement of URI characters, RFC 3986 URIs, version `1`, a decimal
 * chain id without leading zeros, a nonce of 8+ letters and digits, RFC 3339 timestamps whose dates exist.
 *
 * It passes the official suite (`test/vectors/siwe`), unlike viem's `parseSiweMessage`, which is a lenient, unanchored
 * regular expression that returns partial fields instead of failing. Parsing says nothing about the signature.
 *
 * @param {@link ParseSiweMessageParameters}
 * @returns the fields, timestamps as the strings that were signed. {@link ParseSiweMessageReturnType}
 * @throws {@link InvalidSiweMessageError} naming the first field that is wrong.
 * @example
 * import { parseSiweMessage } from "./src/auth/parseSiweMessage";
 * const { domain, address, nonce } = parseSiweMessage({ message: text });
 */
export function parseSiweMessage({ message }: ParseSiweMessageParameters): ParseSiweMessageReturnType {
  if (typeof message !== "string") fail("message", "The message must be a string.");
  if (message.includes("\r")) fail("message", "The message must use LF line breaks only (a CR was found).");
  const lines = message.split("\n");
  let at = 0;
  const next = (): string | undefined => lines[at++];

  const header = HEADER.exec(next() ?? "");
  if (header === null)
    fail("domain", "The first line must be '<domain> wants you to sign in with your Ethereum account:'.");
  const [, scheme, domain] = header;
  const authority = parseAuthority(domain);
  if (domain === "" || authority === null || authority.host === "") {
    fail("domain", "The domain must be an RFC 3986 authority (host[:port]).");
  }

  const address = next() ?? "";
  if (!ADDRESS.test(address) || getAddress(address) !== address) {
    fail("address", "The second line must be the address in EIP-55 checksum form (0x + 40 hex, mixed case).");
  }
  if (next() !== "") fail("address", "An empty line must follow the address.");
  let statement: string | undefined;
  if (lines[at] !== "") {
    statement = next() ?? "";
    if (!isStatement(statement)) {
      fail("statement", "The statement must be one line of RFC 3986 reserved/unreserved characters and spaces.");
    }
  }
  if (next() !== "") fail("statement", "An empty line must follow the statement.");

  const uri = tagged(next(), "URI", "uri");
  if (!isUri(uri)) fail("uri", "The URI must be an RFC 3986 URI.");
  if (tagged(next(), "Version", "version") !== "1") fail("version", "Version must be 1.");
  const chainId = tagged(next(), "Chain ID", "chainId");
  if (!CHAIN_ID.test(chainId) || !Number.isSafeInteger(Number(chainId))) {
    fail("chainId", "Chain ID must be a decimal integer (EIP-155) without leading zeros.");
  }
  const nonce = tagged(next(), "Nonce", "nonce");
  if (!NONCE.test(nonce)) fail("nonce", "The nonce must be at least 8 letters and digits.");

  const fields: SiweMessage = {
    ...(scheme === undefined ? {} : { scheme }),
    domain,
    address,
    ...(statement === undefined ? {} : { statement }),
    uri,
    version: "1",
    chainId: Number(chainId),
    nonce,
    issuedAt: timestamp(tagged(next(), TIMESTAMPS.issuedAt, "issuedAt"), "issuedAt"),
  };
  for (const field of ["expirationTime", "notBefore"] as const) {
    if (lines[at]?.startsWith(`${TIMESTAMPS[field]}: `)) {
      fields[field] = timestamp(tagged(next(), TIMESTAMPS[field], field), field);
    }
  }
  if (lines[at]?.startsWith("Request ID: ")) {
    const requestId = tagged(next(), "Request ID", "requestId");
    if (!isPchars(requestId)) fail("requestId", "The Request ID must be RFC 3986 pchar characters.");
    fields.requestId = requestId;
  }
  if (lines[at] === "Resources:") {
    at++;
    fields.resources = [];
    while (at < lines.length) {
      const line = next() ?? "";
      if (!line.startsWith("- ") || !isUri(line.slice(2))) {
        fail("resources", "Each resource must be on its own line as '- <RFC 3986 URI>'.");
      }
      fields.resources.push(line.slice(2));
    }
  }
  if (at < lines.length) {
    fail("message", `Unexpected line ${at + 1}: the fields are out of order, repeated or unknown.`);
  }
  return fields;
}

/** The value of a `Tag: value` line, or a failure naming `field` when the line is missing or another one. */
function tagged(line: string | undefined, tag: string, field: string): string {
  if (line === undefined || !line.startsWith(`${tag}: `)) fail(field, `Expected the line '${tag}: …' here.`);
  return line.slice(tag.length + 2);
}

function timestamp(value: string, field: string): string {
  if (parseDateTime(value) === null) {
    fail(field, `${field} must be an RFC 3339 date-time that exists, e.g. 2026-01-01T00:00:00Z.`);
  }
  return value;
}

function fail(field: string, message: string): never {
  throw new InvalidSiweMessageError({ field, message });
}
