import { TypedAttestationRangeError } from "../../errors/attestation";

const DECIMAL = /^(0|[1-9][0-9]*)$/;

/** An unsigned integer given as a bigint, a safe-integer number or a canonical decimal string, checked against `bits`. */
export function parseUint(field: string, value: unknown, bits: number): bigint {
  let n: bigint;
  if (typeof value === "bigint") n = value;
  // -0 carries a sign: rejected like "-0", never coerced to 0.
  else if (typeof value === "number" && Number.isSafeInteger(value) && !Object.is(value, -0)) n = BigInt(value);
  else if (typeof value === "string" && DECIMAL.test(value)) n = BigInt(value);
  else
    throw new TypedAttestationRangeError({
      field,
      value,
      type: `uint${bits}`,
      reason: "expected a bigint, a safe integer or a canonical decimal string",
    });
  if (n < 0n || n >= 1n << BigInt(bits))
    throw new TypedAttestationRangeError({ field, value, type: `uint${bits}`, reason: "out of range" });
  return n;
}
