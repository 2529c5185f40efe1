import { InvalidIntegerFieldError, MissingAttestationFieldError } from "../../errors/attestation";

const DECIMAL = /^(0|[1-9][0-9]*)$/;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A non-negative safe integer given as a JSON number or a canonical decimal string. Never coerces: hex, signs,
 * fractions, exponents, leading zeros, whitespace and values above 2^53 - 1 are rejected.
 */
export function parseIntegerField(field: string, value: unknown): number {
  if (typeof value === "number") {
    if (!Number.isInteger(value)) throw new InvalidIntegerFieldError({ field, value, reason: "not an integer" });
    if (value < 0) throw new InvalidIntegerFieldError({ field, value, reason: "negative" });
    if (value > Number.MAX_SAFE_INTEGER)
      throw new InvalidIntegerFieldError({ field, value, reason: "larger than 2^53 - 1" });
    return value === 0 ? 0 : value; // -0 -> 0
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
