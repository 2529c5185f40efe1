import { InvalidPoolIdError } from "../errors/pool";

/** A pool reference as a reader gives it: the address, and the chain when the identifier names one. */
export type PoolRef = { chainId: number | null; address: `0x${string}` };

export type ParsePoolIdParameters = {
  /** `0x<address>`, `<chainId>:0x<address>` or CAIP-10 `eip155:<chainId>:0x<address>`; address in any case. */
  id: string;
  /** The request field that holds the id, named in the error. Default `"pool"`. */
  field?: string;
};
export type ParsePoolIdReturnType = PoolRef;
export type ParsePoolIdErrorType = InvalidPoolIdError;

const ADDRESS = "0x[0-9a-fA-F]{40}";
const CHAIN_ID = "[1-9][0-9]{0,15}";
const SHAPES = new RegExp(`^(?:(?:(eip155):)?(${CHAIN_ID}):)?(${ADDRESS})$`, "i");

/**
 * Parses a pool identifier in one of the three accepted shapes: `0x<address>`, `<chainId>:0x<address>` or
 * CAIP-10 `eip155:<chainId>:0x<address>`. The address may be in any case; it comes back lower-cased.
 *
 * @param {@link ParsePoolIdParameters}
 * @returns the {@link PoolRef}; `chainId` is null for a bare address.
 * @throws {@link InvalidPoolIdError} (`INVALID_POOL_ID`) for anything else.
 * @example
 * import { parsePoolId } from "@attestation-registry/sdk";
 * parsePoolId({ id: "eip155:1:0xB4e16d0168e52d35CaCD2c6185b44281Ec28C9Dc" });
 * // { chainId: 1, address: "0xb4e16d0168e52d35cacd2c6185b44281ec28c9dc" }
 */
export function parsePoolId({ id, field = "pool" }: ParsePoolIdParameters): ParsePoolIdReturnType {
  const match = SHAPES.exec(id);
  const chainId = match?.[2] === undefined ? null : Number(match[2]);
  if (!match || (chainId !== null && !Number.isSafeInteger(chainId))) throw new InvalidPoolIdError({ id, field });
  return { chainId, address: match[3].toLowerCase() as `0x${string}` };
}
