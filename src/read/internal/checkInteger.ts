import { InvalidParameterError } from "../../errors/market";

/** Throws {@link InvalidParameterError} unless `value` is an integer in `[min, max]`; returns it. */
export function checkInteger(field: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new InvalidParameterError({ field, value, expected: `an integer from ${min} to ${max}` });
  }
  return value;
}

/**
 * An integer parameter of a reader, declared once beside it: the REST route's query schema and the MCP tool's input
 * schema declare it as written here (description, range, default), and the reader checks the range and applies the
 * default. Without `maximum`, the largest safe integer.
 */
export type IntegerParameter = { description: string; minimum: number; maximum?: number; default?: number };

/** `value`, or the parameter's default when it is undefined, checked against the parameter's range; returns it. */
export function checkParameter(field: string, parameter: IntegerParameter, value: number | undefined): number {
  const { minimum, maximum = Number.MAX_SAFE_INTEGER } = parameter;
  return checkInteger(field, value === undefined ? (parameter.default as number) : value, minimum, maximum);
}
