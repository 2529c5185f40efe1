export type FormatPoolIdParameters = { chainId: number; address: string };
export type FormatPoolIdReturnType = `eip155:${number}:0x${string}`;
export type FormatPoolIdErrorType = never;

/**
 * The qualified (CAIP-10) identifier of a pool: `eip155:<chainId>:<address>`, address lower-cased. Every surface
 * names pools this way; {@link parsePoolId} reads it back.
 *
 * @param {@link FormatPoolIdParameters}
 * @returns the CAIP-10 id.
 * @example
 * import { formatPoolId } from "@attestation-registry/sdk";
 * formatPoolId({ chainId: 8453, address: "0x67FF233C91CEE6C6D3067FAA586ED0280D3DABB7" });
 * // "eip155:8453:0x67ff233c91cee6c6d3067faa586ed0280d3dabb7"
 */
export function formatPoolId({ chainId, address }: FormatPoolIdParameters): FormatPoolIdReturnType {
  return `eip155:${chainId}:${address.toLowerCase()}` as FormatPoolIdReturnType;
}
