import { InvalidLiquidityRequestError } from "../errors/write";

/** The largest `amountUsd` accepted: one trillion dollars. */
export const MAX_AMOUNT_USD = 1e12;
/** The longest `horizonDays` accepted (a year), as `GET /api/v1/volume?days=` allows. */
export const MAX_HORIZON_DAYS = 365;
/** The longest `note`, in characters as JavaScript counts them (UTF-16 code units). */
export const MAX_NOTE_LENGTH = 500;

/** A liquidity request's body, checked: a pool id (any of the three shapes, as sent) or an asset, never both. */
export type LiquidityRequestInput = {
  chainId: number;
  /** The pool as sent (resolved later against the tracked pools), or null when the request names an asset. */
  pool: string | null;
  /** The asset, lower-cased, or null when the request names a pool. */
  asset: `0x${string}` | null;
  amountUsd: number;
  horizonDays: number;
  /** Null when absent. */
  note: string | null;
};

export type ParseLiquidityRequestInputParameters = {
  /** The body as a JSON value (e.g. a parsed request body or a dapp form's object). */
  input: unknown;
};
export type ParseLiquidityRequestInputReturnType = LiquidityRequestInput;
export type ParseLiquidityRequestInputErrorType = InvalidLiquidityRequestError;

const MEMBERS = ["chainId", "pool", "asset", "amountUsd", "horizonDays", "note"];
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** Control characters other than tab and line breaks, and unpaired surrogates, which UTF-8 cannot store. */
const BAD_NOTE_CHARACTER =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Checks a liquidity request's body without coercing anything: `{chainId, pool | asset, amountUsd, horizonDays,
 * note?}`, nothing else. `chainId` a JSON integer ≥ 1; exactly one of `pool` (a string; its shape and whether it is
 * tracked are checked when it is resolved) and `asset` (a 0x address, not the zero address); `amountUsd` a finite
 * JSON number above 0 and at most 1e12; `horizonDays` an integer 1–365; `note` a string of at most 500 characters
 * without control characters (tab and line breaks allowed). An optional member given as null counts as absent.
 *
 * @param {@link ParseLiquidityRequestInputParameters}
 * @returns the checked {@link LiquidityRequestInput}.
 * @throws {@link InvalidLiquidityRequestError} (`INVALID_REQUEST`) naming the first bad member in `field`.
 * @example
 * import { parseLiquidityRequestInput } from "./src/write/parseLiquidityRequestInput";
 * parseLiquidityRequestInput({ input: { chainId: 1, pool: "eip155:1:0x…", amountUsd: 250000, horizonDays: 30 } });
 */
export function parseLiquidityRequestInput({
  input,
}: ParseLiquidityRequestInputParameters): ParseLiquidityRequestInputReturnType {
  const fail = (field: string, message: string): never => {
    throw new InvalidLiquidityRequestError({ field, message });
  };
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return fail("", "The body must be a JSON object: {chainId, pool | asset, amountUsd, horizonDays, note?}.");
  }
  const body = input as Record<string, unknown>;
  const unknown = Object.keys(body).find((name) => !MEMBERS.includes(name));
  if (unknown !== undefined) {
    fail(unknown, `Unknown member "${unknown.slice(0, 50)}"; the members are ${MEMBERS.join(", ")}.`);
  }
  // An optional member that is null counts as absent (the 201 body says `"asset": null` for a pool request).
  const absentIfNull = (value: unknown) => (value === null ? undefined : value);
  const { chainId, amountUsd, horizonDays } = body;
  const [pool, asset, note] = [absentIfNull(body.pool), absentIfNull(body.asset), absentIfNull(body.note)];
  if (chainId === undefined) fail("chainId", "chainId is missing; send the chain id as a JSON integer, e.g. 1.");
  if (typeof chainId !== "number" || !Number.isSafeInteger(chainId) || chainId < 1) {
    fail("chainId", "chainId must be a JSON integer of at least 1 (a string is not accepted).");
  }
  if (pool !== undefined && asset !== undefined) fail("asset", "Send pool or asset, not both.");
  if (pool === undefined && asset === undefined) {
    fail("pool", "Send pool (a tracked pool id) or asset (a 0x token address).");
  }
  if (pool !== undefined && typeof pool !== "string") {
    fail("pool", "pool must be a string: 0x<address>, <chainId>:0x<address> or eip155:<chainId>:0x<address>.");
  }
  if (asset !== undefined && (typeof asset !== "string" || !ADDRESS.test(asset) || /^0x0{40}$/.test(asset))) {
    fail("asset", "asset must be a token address: 0x followed by 40 hex digits (not the zero address).");
  }
  if (typeof amountUsd !== "number" || !Number.isFinite(amountUsd) || amountUsd <= 0 || amountUsd > MAX_AMOUNT_USD) {
    fail("amountUsd", `amountUsd must be a JSON number above 0 and at most ${MAX_AMOUNT_USD} (USD).`);
  }
  if (typeof horizonDays !== "number" || !Number.isInteger(horizonDays) || horizonDays < 1 || horizonDays > 365) {
    fail("horizonDays", `horizonDays must be a JSON integer from 1 to ${MAX_HORIZON_DAYS}.`);
  }
  if (note !== undefined) {
    if (typeof note !== "string") fail("note", "note must be a string (or absent).");
    if ((note as string).length > MAX_NOTE_LENGTH) fail("note", `note must be at most ${MAX_NOTE_LENGTH} characters.`);
    if (BAD_NOTE_CHARACTER.test(note as string)) fail("note", "note must not hold control characters.");
  }
  return {
    chainId: chainId as number,
    pool: pool === undefined ? null : (pool as string),
    asset: asset === undefined ? null : ((asset as string).toLowerCase() as `0x${string}`),
    amountUsd: amountUsd as number,
    horizonDays: horizonDays as number,
    note: note === undefined ? null : (note as string),
  };
}
