import {
  DuplicateJsonKeyError,
  type DuplicateJsonKeyErrorType,
  InvalidIntegerFieldError,
  type InvalidIntegerFieldErrorType,
  InvalidJsonError,
  type InvalidJsonErrorType,
} from "../errors/attestation";

export type ParseAttestationJsonParameters = {
  /** JSON text, e.g. a `GET /api/v1/pool/{pool}` response body or a `POST /api/v1/verify` request body. */
  text: string;
};

/** The parsed value, exactly as `JSON.parse` would return it. Check it with `verifyAttestation`. */
export type ParseAttestationJsonReturnType = unknown;

export type ParseAttestationJsonErrorType =
  InvalidJsonErrorType | DuplicateJsonKeyErrorType | InvalidIntegerFieldErrorType;

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
 * Parses JSON text strictly (RFC 8259, the grammar of `JSON.parse`) and rejects any object that repeats a member
 * name, even when the repeats are spelled differently (`"a"` and `"\u0061"`). Parsers disagree on which repeated
 * value wins, so accepting them would let a verifier check a value other than the one a reader sees.
 *
 * For the attestation's integer fields (`chainId`, `expiry`, `horizon`, `issuedAt` of a top-level object) a JSON
 * number must be written as plain digits, `^(0|[1-9][0-9]*)$`, at most 2^53 - 1: `8453.0`, `8.453e3` and `-0` parse
 * to integers in JavaScript, so the text is the only place where the fraction, exponent or sign can be seen. Other
 * numbers (`confidence` included) keep full JSON-number semantics.
 *
 * @param parameters - {@link ParseAttestationJsonParameters}
 * @returns The parsed value. {@link ParseAttestationJsonReturnType}
 * @throws {InvalidJsonError} For text that is not JSON (with the position).
 * @throws {DuplicateJsonKeyError} For a repeated member name (with the key and its path).
 * @throws {InvalidIntegerFieldError} For a top-level `chainId`, `expiry`, `horizon` or `issuedAt` whose JSON number is
 * not written as plain digits (`8453.0`, `8.453e3`, `-0`) or exceeds 2^53 - 1.
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

  /** `integerField`: the value of a top-level integer field, whose number text must be plain digits. */
  const parseValue = (path: string, depth: number, integerField?: string): unknown => {
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
        const value = parseValue(memberPath, depth + 1, depth === 0 && INTEGER_FIELDS.has(key) ? key : undefined);
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
    const numberAt = pos;
    const number = scanNumber();
    if (number !== null) {
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
    return fail(`${describe(pos)}, expected a value`);
  };

  const value = parseValue("", 0);
  skip();
  if (pos !== text.length) fail(`${describe(pos)} after the value`);
  return value;
}
