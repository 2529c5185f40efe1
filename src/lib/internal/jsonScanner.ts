import { InvalidJsonError } from "../../errors/attestation";

/**
 * The lexical half of `parseAttestationJson`: a cursor over JSON text and the tokens read from it (whitespace,
 * strings, numbers). One pass over the characters, no regular expression on the input: a backtracking regex
 * recurses per character and overflows the stack on strings of a few million characters.
 */
export type JsonScanner = {
  readonly text: string;
  /** The offset of the next character to read. */
  pos: number;
};

const HEX_DIGIT = /^[0-9a-fA-F]{4}$/;
/** The characters after a backslash that stand for themselves or for a control character. */
const ESCAPES = new Map([
  ['"', '"'],
  ["\\", "\\"],
  ["/", "/"],
  ["b", "\b"],
  ["f", "\f"],
  ["n", "\n"],
  ["r", "\r"],
  ["t", "\t"],
]);

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;

/** Throws `InvalidJsonError` with `reason` at `at` (default: the cursor). */
export function failJson(scanner: JsonScanner, reason: string, at = scanner.pos): never {
  throw new InvalidJsonError({ reason, position: at });
}

/** `unexpected end of input` or `unexpected character "x"` for the character at `at`. */
export function describeJsonAt(scanner: JsonScanner, at: number): string {
  return at >= scanner.text.length
    ? "unexpected end of input"
    : `unexpected character ${JSON.stringify(scanner.text[at])}`;
}

/** Moves the cursor past JSON whitespace (space, tab, line feed, carriage return). */
export function skipJsonWhitespace(scanner: JsonScanner): void {
  for (;;) {
    const code = scanner.text.charCodeAt(scanner.pos);
    if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return;
    scanner.pos++;
  }
}

/** Reads the string whose opening quote is at the cursor and returns its value, escapes decoded. */
export function scanJsonString(scanner: JsonScanner): string {
  const { text } = scanner;
  const start = scanner.pos;
  let value = "";
  let i = start + 1; // after the opening quote
  let run = i; // start of the current run of plain characters
  for (;;) {
    if (i >= text.length) return failJson(scanner, "unterminated string", start);
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      scanner.pos = i + 1;
      return value + text.slice(run, i);
    }
    if (code < 0x20) return failJson(scanner, "control character in a string (escape it)", i);
    if (code !== 0x5c) {
      i++;
      continue;
    }
    value += text.slice(run, i);
    const [decoded, length] = decodeEscape(scanner, i);
    value += decoded;
    i += length;
    run = i;
  }
}

/** The character a backslash escape at `at` stands for, and the escape's length. */
function decodeEscape(scanner: JsonScanner, at: number): [string, number] {
  const { text } = scanner;
  const escape = text[at + 1];
  const simple = escape === undefined ? undefined : ESCAPES.get(escape);
  if (simple !== undefined) return [simple, 2];
  // Like JSON.parse, a lone surrogate escape is kept as it is.
  if (escape === "u" && HEX_DIGIT.test(text.slice(at + 2, at + 6)))
    return [String.fromCharCode(parseInt(text.slice(at + 2, at + 6), 16)), 6];
  return failJson(scanner, "invalid escape in a string", at);
}

/** Scans a number token (RFC 8259 grammar) at the cursor and returns its text, or null when none starts there. */
export function scanJsonNumber(scanner: JsonScanner): string | null {
  const { text } = scanner;
  const start = scanner.pos;
  let i = start;
  if (text.charCodeAt(i) === 0x2d) i++; // -
  if (text.charCodeAt(i) === 0x30) i++;
  else if (isDigit(text.charCodeAt(i))) while (isDigit(text.charCodeAt(i))) i++;
  else return null;
  if (text.charCodeAt(i) === 0x2e && isDigit(text.charCodeAt(i + 1))) {
    i += 2;
    while (isDigit(text.charCodeAt(i))) i++;
  }
  const e = text.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    let j = i + 1;
    const sign = text.charCodeAt(j);
    if (sign === 0x2b || sign === 0x2d) j++;
    if (isDigit(text.charCodeAt(j))) {
      while (isDigit(text.charCodeAt(j))) j++;
      i = j;
    }
  }
  scanner.pos = i;
  return text.slice(start, i);
}
