import type { Address, PublicClient } from "viem";

/** A block's number and timestamp (Unix seconds). */
export interface BlockPoint {
  number: bigint;
  timestamp: number;
}

/** Parameters of {@link findFirstBlockAtOrAfter}. */
export interface FindFirstBlockAtOrAfterParameters {
  client: PublicClient;
  /** Unix seconds. */
  time: number;
  /** The last block to consider (the pass's pinned block), with its timestamp. */
  upTo: BlockPoint;
}

/**
 * The first block whose timestamp is at or after `time`, among blocks 0…`upTo` (null when even `upTo` is older).
 * Interpolation search on block timestamps (they only grow), falling back to halving whenever a guess does not
 * halve the interval: a few `eth_getBlockByNumber` requests on a regular chain, at most about 2·log2(upTo).
 *
 * @param {@link FindFirstBlockAtOrAfterParameters}
 */
export async function findFirstBlockAtOrAfter(
  parameters: FindFirstBlockAtOrAfterParameters,
): Promise<BlockPoint | null> {
  const { client, time, upTo } = parameters;
  if (upTo.timestamp < time) return null;
  const timeOf = async (number: bigint) => Number((await client.getBlock({ blockNumber: number })).timestamp);
  let lo: BlockPoint = { number: 0n, timestamp: await timeOf(0n) };
  if (lo.timestamp >= time) return lo;
  let hi = upTo;
  let bisect = false;
  // Invariant: lo.timestamp < time <= hi.timestamp.
  while (hi.number - lo.number > 1n) {
    const width = hi.number - lo.number;
    let guess: bigint;
    if (bisect || hi.timestamp === lo.timestamp) guess = lo.number + width / 2n;
    else {
      const share = BigInt(time - lo.timestamp) * width;
      guess = lo.number + share / BigInt(hi.timestamp - lo.timestamp);
    }
    if (guess <= lo.number) guess = lo.number + 1n;
    if (guess >= hi.number) guess = hi.number - 1n;
    const point = { number: guess, timestamp: await timeOf(guess) };
    if (point.timestamp < time) lo = point;
    else hi = point;
    bisect = !bisect && hi.number - lo.number > width / 2n;
  }
  return hi;
}

/** Parameters of {@link findDeployBlock}. */
export interface FindDeployBlockParameters {
  client: PublicClient;
  address: Address;
  /** The last block to consider (the pass's pinned block). */
  upTo: bigint;
}

/**
 * The block in which a contract's code appeared (its deployment), by halving on `eth_getCode`: about log2(upTo)
 * requests, once per contract. Null when the address has no code at `upTo`.
 *
 * @param {@link FindDeployBlockParameters}
 */
export async function findDeployBlock(parameters: FindDeployBlockParameters): Promise<bigint | null> {
  const { client, address, upTo } = parameters;
  const hasCode = async (blockNumber: bigint) => {
    const code = await client.getCode({ address, blockNumber });
    return code !== undefined && code !== "0x";
  };
  if (!(await hasCode(upTo))) return null;
  if (await hasCode(0n)) return 0n;
  let lo = 0n; // no code
  let hi = upTo; // code
  while (hi - lo > 1n) {
    const mid = lo + (hi - lo) / 2n;
    if (await hasCode(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}
