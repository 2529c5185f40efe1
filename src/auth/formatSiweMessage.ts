import { InvalidSiweMessageError, type InvalidSiweMessageErrorType } from "../errors/siwe";
import { parseSiweMessage } from "./parseSiweMessage";
import type { SiweMessage } from "./types";

export type FormatSiweMessageParameters = {
  /** The fields; timestamps are RFC 3339 strings, printed as given. */
  fields: SiweMessage;
};
export type FormatSiweMessageReturnType = string;
export type FormatSiweMessageErrorType = InvalidSiweMessageErrorType;

const REQUIRED = ["domain", "address", "uri", "version", "chainId", "nonce", "issuedAt"] as const;
const KNOWN = new Set<string>([
  ...REQUIRED,
  "scheme",
  "statement",
  "expirationTime",
  "notBefore",
  "requestId",
  "resources",
]);

/**
 * Writes the EIP-4361 text of a message, for the wallet to sign. The result is checked with the strict
 * {@link parseSiweMessage}, which must read back exactly `fields`: so a field that breaks the grammar (a line break in
 * the statement, a non-checksummed address, a date that does not exist) is refused here, never signed. Timestamps are
 * printed as given, not re-printed from a `Date` (viem's `createSiweMessage` turns `…00Z` into `…00.000Z`).
 *
 * The server never calls this: it verifies the exact text the wallet signed and never rebuilds it from fields.
 *
 * @param {@link FormatSiweMessageParameters}
 * @returns the message text (LF line breaks, no trailing line break).
 * @throws {@link InvalidSiweMessageError} naming the missing or invalid field.
 * @example
 * import { formatSiweMessage } from "./src/auth/formatSiweMessage";
 * const message = formatSiweMessage({
 *   fields: { domain: "127.0.0.1:8080", address, uri: "http://127.0.0.1:8080/app/", version: "1", chainId: 1, nonce,
 *     issuedAt: new Date().toISOString() },
 * });
 */
export function formatSiweMessage({ fields }: FormatSiweMessageParameters): FormatSiweMessageReturnType {
  const record = fields as unknown as Record<string, unknown>;
  for (const field of REQUIRED) {
    if (record[field] === undefined || record[field] === null) fail(field, `The field ${field} is required.`);
  }
  for (const [field, value] of Object.entries(record)) {
    if (!KNOWN.has(field)) fail(field, `Unknown field ${field}.`);
    if (value === null) continue;
    const ok =
      field === "chainId"
        ? Number.isSafeInteger(value) && (value as number) >= 0
        : field === "resources"
          ? Array.isArray(value) && value.every((item) => typeof item === "string")
          : typeof value === "string";
    if (!ok) fail(field, `The field ${field} has the wrong type.`);
  }
  const present = (value: unknown): boolean => value !== undefined && value !== null;
  const origin = present(fields.scheme) ? `${fields.scheme}://${fields.domain}` : fields.domain;
  const lines = [`${origin} wants you to sign in with your Ethereum account:`, fields.address, ""];
  if (present(fields.statement)) lines.push(fields.statement as string);
  lines.push(
    "",
    `URI: ${fields.uri}`,
    `Version: ${fields.version}`,
    `Chain ID: ${fields.chainId}`,
    `Nonce: ${fields.nonce}`,
    `Issued At: ${fields.issuedAt}`,
  );
  if (present(fields.expirationTime)) lines.push(`Expiration Time: ${fields.expirationTime}`);
  if (present(fields.notBefore)) lines.push(`Not Before: ${fields.notBefore}`);
  if (present(fields.requestId)) lines.push(`Request ID: ${fields.requestId}`);
  if (present(fields.resources)) lines.push("Resources:", ...(fields.resources as string[]).map((r) => `- ${r}`));
  const message = lines.join("\n");

  const parsed = parseSiweMessage({ message }) as Record<string, unknown>;
  for (const field of KNOWN) {
    if (JSON.stringify(parsed[field] ?? null) !== JSON.stringify(record[field] ?? null)) {
      fail(field, `The field ${field} does not survive formatting (e.g. it holds a line break).`);
    }
  }
  return message;
}

function fail(field: string, message: string): never {
  throw new InvalidSiweMessageError({ field, message });
}
