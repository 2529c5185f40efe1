import {
  DuplicateJsonKeyError,
  type DuplicateJsonKeyErrorType,
  InvalidJsonError,
  type InvalidJsonErrorType,
} from "../errors/attestation";

export type ParseAttestationJsonParameters = {
  /** JSON text, e.g. a `GET /api/v1/pool/{pool}` response body or a `POST /api/v1/verify` request body. */
  text: string;
};

/** The parsed value, exactly as `JSON.parse` would return it. Check it with `verifyAttestation`. */
export type ParseAttestationJsonReturnType = unknown;

export type ParseAttestationJsonErrorType = InvalidJsonErrorType | DuplicateJsonKeyErrorType;

/** Deeper nesting than this is rejected instead of exhausting the stack. */
const MAX_DEPTH = 256;

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

/**
 * Parses JSON text strictly (RFC 8259, the grammar of `JSON.parse`) and rejects any object that repeats a member
 * name, even when the repeats are spelled differently (`"a"` and `"\u0061"`). Parsers disagree on which repeated
 * value wins, so accepting them would let a verifier check a value other than the one a reader sees.
 *
 * @param parameters - {@link ParseAttestationJsonParameters}
 * @returns The parsed value. {@link ParseAttestationJsonReturnType}
 * @throws {InvalidJsonError} For text that is not JSON (with the position).
 * @throws {DuplicateJsonKeyError} For a repeated member name (with the key and its path).
 *
 * @example
 * import { parseAttestationJson, verifyAttestation } from "attestation-registry";
 *
 * const attestation = parseAttestationJson({ text: await response.text() });
 * verifyAttestation({ attestation: attestation as Attestation, address: pinnedAttester });
 */
export function parseAttestationJson({ text }: ParseAttestationJsonParameters): ParseAttestationJsonReturnType {
  if (typeof text !== "string") throw new InvalidJsonError({ reason: "input is not a string", position: 0 });
  let pos = 0;

  const fail = (reason: string, at = pos): never => {
    throw new InvalidJsonError({ reason, position: at });
  };
  const skip = () => {
    for (;;) {
      const code = text.charCodeAt(pos);
      if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return;
      pos++;
    }
  };
  const describe = (at: number) =>
    at >= text.length ? "unexpected end of input" : `unexpected character ${JSON.stringify(text[at])}`;

  // One pass over the characters, no regular expression: a backtracking regex recurses per character and overflows
  // the stack on strings of a few million characters.
  const parseString = (): string => {
    const start = pos;
    let value = "";
    let i = pos + 1; // after the opening quote
    let run = i; // start of the current run of plain characters
    for (;;) {
      if (i >= text.length) return fail("unterminated string", start);
      const code = text.charCodeAt(i);
      if (code === 0x22) {
        pos = i + 1;
        return value + text.slice(run, i);
      }
      if (code < 0x20) return fail("control character in a string (escape it)", i);
      if (code !== 0x5c) {
        i++;
        continue;
      }
      value += text.slice(run, i);
      const escape = text[i + 1];
      const simple = escape === undefined ? undefined : ESCAPES.get(escape);
      if (simple !== undefined) {
        value += simple;
        i += 2;
      } else if (escape === "u" && HEX_DIGIT.test(text.slice(i + 2, i + 6))) {
        // Like JSON.parse, a lone surrogate escape is kept as it is.
        value += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
        i += 6;
      } else {
        return fail("invalid escape in a string", i);
      }
      run = i;
    }
  };

  /** Scans a number token (RFC 8259 grammar) and returns its text, or null when none starts here. */
  const scanNumber = (): string | null => {
    const start = pos;
    let i = pos;
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
    pos = i;
    return text.slice(start, i);
  };

  const parseValue = (path: string, depth: number): unknown => {
    skip();
    const c = text[pos];
    if (c === "{") {
      if (depth >= MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH}`);
      pos++;
      const object: Record<string, unknown> = {};
      const seen = new Set<string>();
      skip();
      if (text[pos] === "}") {
        pos++;
        return object;
      }
      for (;;) {
        skip();
        if (text[pos] !== '"') fail(`${describe(pos)}, expected a member name`);
        const keyAt = pos;
        const key = parseString();
        const memberPath = `${path}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
        if (seen.has(key)) throw new DuplicateJsonKeyError({ key, path: path || "", position: keyAt });
        seen.add(key);
        skip();
        if (text[pos] !== ":") fail(`${describe(pos)}, expected ":"`);
        pos++;
        const value = parseValue(memberPath, depth + 1);
        // Like JSON.parse: "__proto__" becomes an own property, never the prototype.
        Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
        skip();
        if (text[pos] === ",") {
          pos++;
          continue;
        }
        if (text[pos] === "}") {
          pos++;
          return object;
        }
        fail(`${describe(pos)}, expected "," or "}"`);
      }
    }
    if (c === "[") {
      if (depth >= MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH}`);
      pos++;
      const array: unknown[] = [];
      skip();
      if (text[pos] === "]") {
        pos++;
        return array;
      }
      for (;;) {
        array.push(parseValue(`${path}/${array.length}`, depth + 1));
        skip();
        if (text[pos] === ",") {
          pos++;
          continue;
        }
        if (text[pos] === "]") {
          pos++;
          return array;
        }
        fail(`${describe(pos)}, expected "," or "]"`);
      }
    }
    if (c === '"') return parseString();
    if (text.startsWith("true", pos)) {
      pos += 4;
      return true;
    }
    if (text.startsWith("false", pos)) {
      pos += 5;
      return false;
    }
    if (text.startsWith("null", pos)) {
      pos += 4;
      return null;
    }
    const number = scanNumber();
    if (number !== null) return Number(number);
    return fail(`${describe(pos)}, expected a value`);
  };

  const value = parseValue("", 0);
  skip();
  if (pos !== text.length) fail(`${describe(pos)} after the value`);
  return value;
}
