import { DuplicateJsonKeyError, InvalidIntegerFieldError } from "../../errors/attestation";
import {
  describeJsonAt,
  failJson,
  scanJsonNumber,
  scanJsonString,
  skipJsonWhitespace,
  type JsonScanner,
} from "./jsonScanner";

/** Deeper nesting than this is rejected instead of exhausting the stack. */
const MAX_DEPTH = 256;

/**
 * The attestation's integer fields. A JSON number in them must be written as plain digits: `8453.0`, `8.453e3` and
 * `-0` become integers in JavaScript, so only the text can tell that they were not written as one.
 */
const INTEGER_FIELDS = new Set(["chainId", "expiry", "horizon", "issuedAt"]);
const MAX_SAFE_DIGITS = String(Number.MAX_SAFE_INTEGER);

/** Why a number token cannot be an integer field, or null when it is plain digits within 2^53 - 1. */
function integerTokenProblem(token: string): string | null {
  // Same wording as parseIntegerField gives for the number itself.
  if (token.startsWith("-")) return Number(token) === 0 ? "negative zero (a sign)" : "negative";
  const problems: string[] = [];
  if (token.includes(".")) problems.push("a fraction");
  if (/[eE]/.test(token)) problems.push("an exponent");
  if (problems.length > 0)
    return `the JSON number is written with ${problems.join(" and ")}; write the integer as plain digits`;
  if (token.length > MAX_SAFE_DIGITS.length || (token.length === MAX_SAFE_DIGITS.length && token > MAX_SAFE_DIGITS))
    return "larger than 2^53 - 1";
  return null;
}

/**
 * The grammar half of `parseAttestationJson`: parses the value at the cursor (after any whitespace) and moves the
 * cursor past it. `path` is the value's JSON Pointer (for `DuplicateJsonKeyError`), `depth` its nesting, and
 * `integerField` the name of the top-level integer field it is the value of, if any: its number text must then be
 * plain digits.
 */
export function parseJsonValue(scanner: JsonScanner, path: string, depth: number, integerField?: string): unknown {
  skipJsonWhitespace(scanner);
  const c = scanner.text[scanner.pos];
  if (c === "{") return parseJsonObject(scanner, path, depth);
  if (c === "[") return parseJsonArray(scanner, path, depth);
  if (c === '"') return scanJsonString(scanner);
  return parseJsonLiteral(scanner, integerField);
}

/** The object whose `{` is at the cursor; a repeated member name is a `DuplicateJsonKeyError`. */
function parseJsonObject(scanner: JsonScanner, path: string, depth: number): Record<string, unknown> {
  if (depth >= MAX_DEPTH) failJson(scanner, `nesting deeper than ${MAX_DEPTH}`);
  scanner.pos++;
  const object: Record<string, unknown> = {};
  const seen = new Set<string>();
  skipJsonWhitespace(scanner);
  if (scanner.text[scanner.pos] === "}") {
    scanner.pos++;
    return object;
  }
  for (;;) {
    skipJsonWhitespace(scanner);
    if (scanner.text[scanner.pos] !== '"')
      failJson(scanner, `${describeJsonAt(scanner, scanner.pos)}, expected a member name`);
    const keyAt = scanner.pos;
    const key = scanJsonString(scanner);
    const memberPath = `${path}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    if (seen.has(key)) throw new DuplicateJsonKeyError({ key, path: path || "", position: keyAt });
    seen.add(key);
    skipJsonWhitespace(scanner);
    if (scanner.text[scanner.pos] !== ":") failJson(scanner, `${describeJsonAt(scanner, scanner.pos)}, expected ":"`);
    scanner.pos++;
    const integerField = depth === 0 && INTEGER_FIELDS.has(key) ? key : undefined;
    const value = parseJsonValue(scanner, memberPath, depth + 1, integerField);
    // Like JSON.parse: "__proto__" becomes an own property, never the prototype.
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
    if (endOfList(scanner, "}")) return object;
  }
}

/** The array whose `[` is at the cursor. */
function parseJsonArray(scanner: JsonScanner, path: string, depth: number): unknown[] {
  if (depth >= MAX_DEPTH) failJson(scanner, `nesting deeper than ${MAX_DEPTH}`);
  scanner.pos++;
  const array: unknown[] = [];
  skipJsonWhitespace(scanner);
  if (scanner.text[scanner.pos] === "]") {
    scanner.pos++;
    return array;
  }
  for (;;) {
    array.push(parseJsonValue(scanner, `${path}/${array.length}`, depth + 1));
    if (endOfList(scanner, "]")) return array;
  }
}

/** After a member or element: false past a `,` (another follows), true past the closing `close`, else an error. */
function endOfList(scanner: JsonScanner, close: "}" | "]"): boolean {
  skipJsonWhitespace(scanner);
  const c = scanner.text[scanner.pos];
  if (c === ",") {
    scanner.pos++;
    return false;
  }
  if (c === close) {
    scanner.pos++;
    return true;
  }
  return failJson(scanner, `${describeJsonAt(scanner, scanner.pos)}, expected "," or "${close}"`);
}

/** `true`, `false`, `null` or a number at the cursor (for an integer field, written as plain digits). */
function parseJsonLiteral(scanner: JsonScanner, integerField: string | undefined): unknown {
  const { text } = scanner;
  if (text.startsWith("true", scanner.pos)) {
    scanner.pos += 4;
    return true;
  }
  if (text.startsWith("false", scanner.pos)) {
    scanner.pos += 5;
    return false;
  }
  if (text.startsWith("null", scanner.pos)) {
    scanner.pos += 4;
    return null;
  }
  const numberAt = scanner.pos;
  const number = scanJsonNumber(scanner);
  if (number === null) return failJson(scanner, `${describeJsonAt(scanner, scanner.pos)}, expected a value`);
  const problem = integerField === undefined ? null : integerTokenProblem(number);
  if (problem !== null)
    throw new InvalidIntegerFieldError({
      field: integerField!,
      value: Number(number),
      reason: problem,
      text: number,
      position: numberAt,
    });
  return Number(number);
}
