import { InvalidIntegerFieldError, MissingAttestationFieldError } from "../../errors/attestation";

const DECIMAL = /^(0|[1-9][0-9]*)$/;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A non-negative safe integer given as a JSON number or a canonical decimal string. Never coerces: hex, signs (also
 * the number -0), fractions, exponents, leading zeros, whitespace and values above 2^53 - 1 are rejected. A number
 * written `8453.0` in JSON text is already the integer 8453 here: `parseAttestationJson` rejects such text.
 */
export function parseIntegerField(field: string, value: unknown): number {
  if (typeof value === "number") {
    if (!Number.isInteger(value)) throw new InvalidIntegerFieldError({ field, value, reason: "not an integer" });
    if (value < 0) throw new InvalidIntegerFieldError({ field, value, reason: "negative" });
    // -0 carries a sign, like "-0": rejected, never coerced to 0.
    if (Object.is(value, -0)) throw new InvalidIntegerFieldError({ field, value, reason: "negative zero (a sign)" });
    if (value > Number.MAX_SAFE_INTEGER)
      throw new InvalidIntegerFieldError({ field, value, reason: "larger than 2^53 - 1" });
    return value;
  }
  if (typeof value === "string") {
    if (!DECIMAL.test(value))
      throw new InvalidIntegerFieldError({
        field,
        value,
        reason: value === "" ? "empty string" : "not a canonical decimal integer string",
      });
    if (value.length > 16 || (value.length === 16 && BigInt(value) > MAX_SAFE))
      throw new InvalidIntegerFieldError({ field, value, reason: "larger than 2^53 - 1" });
    return Number(value);
  }
  if (value === undefined) throw new MissingAttestationFieldError({ field });
  throw new InvalidIntegerFieldError({
    field,
    value,
    reason: `must be a number or a decimal string, not ${value === null ? "null" : typeof value}`,
  });
}
