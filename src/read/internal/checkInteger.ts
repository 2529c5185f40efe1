import { InvalidParameterError } from "../../errors/market";

/** Throws {@link InvalidParameterError} unless `value` is an integer in `[min, max]`; returns it. */
export function checkInteger(field: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new InvalidParameterError({ field, value, expected: `an integer from ${min} to ${max}` });
  }
  return value;
}
