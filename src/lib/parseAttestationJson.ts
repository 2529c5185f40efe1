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

const WHITESPACE = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

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
    WHITESPACE.lastIndex = pos;
    WHITESPACE.exec(text);
    pos = WHITESPACE.lastIndex;
  };
  const describe = (at: number) =>
    at >= text.length ? "unexpected end of input" : `unexpected character ${JSON.stringify(text[at])}`;

  const parseString = (): string => {
    STRING.lastIndex = pos;
    const match = STRING.exec(text);
    if (!match) return fail("unterminated or invalid string");
    pos = STRING.lastIndex;
    return JSON.parse(match[0]) as string;
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
    NUMBER.lastIndex = pos;
    const number = NUMBER.exec(text);
    if (number) {
      pos = NUMBER.lastIndex;
      return Number(number[0]);
    }
    return fail(`${describe(pos)}, expected a value`);
  };

  const value = parseValue("", 0);
  skip();
  if (pos !== text.length) fail(`${describe(pos)} after the value`);
  return value;
}
