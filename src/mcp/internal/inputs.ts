import * as z from "zod/v4";

/**
 * Input-schema parts. Each argument is declared with its JSON Schema type and range for the model (`.meta` goes into
 * `tools/list` as is), but accepts any value: the SDK would answer a schema failure with its own text, without our
 * code, so the handler coerces what a model commonly sends (`"7"` for 7, one comma-separated string for a list) and
 * the shared reader rejects the rest with the API's code (`INVALID_PARAMETER`, `INVALID_POOL_ID`…).
 */

type IntegerSpec = { description: string; minimum: number; maximum?: number; default?: number };

/** An optional integer argument (a number, or a decimal string). */
export const integerInput = ({ description, ...range }: IntegerSpec) =>
  z
    .unknown()
    .meta({ type: ["integer", "string"], description: `${description} (an integer)`, ...range })
    .optional();

/** A string argument (required unless `optional`). */
export const stringInput = (description: string, options: { maxLength?: number } = {}) =>
  z.unknown().meta({ type: "string", description, ...options });

/** A pool id in any shape the API takes (`get_attestation`, `get_pool_history`). */
export const poolInput = () =>
  stringInput(
    "the pool: eip155:<chainId>:0x<address> (as list_pools gives it), <chainId>:0x<address>, or 0x<address> " +
      "when the address is tracked on one chain only; any case",
    { maxLength: 500 },
  );

/** A list of strings: an array, or one comma-separated string. */
export const listInput = (description: string, options: { minItems?: number; maxItems?: number } = {}) =>
  z.unknown().meta({
    description: `${description} (an array of strings, or one comma-separated string)`,
    anyOf: [{ type: "array", items: { type: "string" }, ...options }, { type: "string" }],
  });

/**
 * A value a model sent for an integer: a number as is, a decimal string as its number, null or absent as undefined (the
 * reader's default), anything else unchanged.
 */
export function toInteger(value: unknown): number | undefined {
  // null is "not given" (the reader's default), as a model often sends it for an optional argument.
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string" && /^\s*-?[0-9]+(\.[0-9]+)?\s*$/.test(value)) return Number(value);
  // Not a number: the reader's range check names the argument and quotes the value (INVALID_PARAMETER).
  return value as number | undefined;
}

/** A value a model sent for a string: a string as is, a number as its decimal text, absent as "". */
export function toText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  return typeof value === "number" ? String(value) : JSON.stringify(value);
}

/** A list a model sent: an array's items as text, or a comma-separated string split (as the REST query is). */
export function toList(value: unknown, split: (text: string) => string[]): string[] {
  if (Array.isArray(value)) return value.map(toText);
  return value === undefined || value === null ? [] : split(toText(value));
}
