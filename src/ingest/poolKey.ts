/** The key a pass uses for a pool within one pass: `<chainId>:<address, lower case>`. */
export function poolKey(chainId: number, address: string): string {
  return `${chainId}:${address.toLowerCase()}`;
}
