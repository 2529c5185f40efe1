import {
  type DuplicateJsonKeyErrorType,
  type InvalidIntegerFieldErrorType,
  InvalidJsonError,
  type InvalidJsonErrorType,
} from "../errors/attestation";
import { describeJsonAt, failJson, skipJsonWhitespace, type JsonScanner } from "./internal/jsonScanner";
import { parseJsonValue } from "./internal/parseJsonValue";

export type ParseAttestationJsonParameters = {
  /** JSON text, e.g. a `GET /api/v1/pool/{pool}` response body or a `POST /api/v1/verify` request body. */
  text: string;
};

/** The parsed value, exactly as `JSON.parse` would return it. Check it with `verifyAttestation`. */
export type ParseAttestationJsonReturnType = unknown;

export type ParseAttestationJsonErrorType =
  InvalidJsonErrorType | DuplicateJsonKeyErrorType | InvalidIntegerFieldErrorType;

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
 * import { parseAttestationJson, verifyAttestation } from "@attestation-registry/sdk";
 *
 * const attestation = parseAttestationJson({ text: await response.text() });
 * verifyAttestation({ attestation: attestation as Attestation, address: pinnedAttester });
 */
export function parseAttestationJson({ text }: ParseAttestationJsonParameters): ParseAttestationJsonReturnType {
  if (typeof text !== "string") throw new InvalidJsonError({ reason: "input is not a string", position: 0 });
  const scanner: JsonScanner = { text, pos: 0 };
  const value = parseJsonValue(scanner, "", 0);
  skipJsonWhitespace(scanner);
  if (scanner.pos !== text.length) failJson(scanner, `${describeJsonAt(scanner, scanner.pos)} after the value`);
  return value;
}
