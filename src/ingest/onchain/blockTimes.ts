import type { PublicClient } from "viem";

/** Seconds in an hour: swaps are bucketed by the UTC hour of their block. */
export const HOUR_S = 3600;

/** The start of the UTC hour of a Unix time, in seconds. */
export const hourOf = (time: number): number => time - (((time % HOUR_S) + HOUR_S) % HOUR_S);

/** Parameters of {@link resolveBlockHours} and {@link getBlockTimes}. */
export interface BlockTimesParameters {
  client: PublicClient;
  blocks: readonly bigint[];
  /** Timestamps already known (the pinned block's, or `blockTimestamp` from the logs); fetched ones are added. */
  known: Map<bigint, number>;
}

/**
 * The UTC hour (its start) of each block, fetching as few block headers as possible: block timestamps only grow, so
 * when two blocks fall in the same hour every block between them does too. Halving the sorted list where the hour
 * changes costs about (hour boundaries crossed) × log2(blocks) requests, however many swaps there are.
 *
 * @param {@link BlockTimesParameters}
 * @returns the hour start of every block in `blocks`.
 */
export async function resolveBlockHours(parameters: BlockTimesParameters): Promise<Map<bigint, number>> {
  const { client, known } = parameters;
  const blocks = [...new Set(parameters.blocks)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const hours = new Map<bigint, number>();
  if (blocks.length === 0) return hours;
  const timeOf = async (block: bigint): Promise<number> => {
    const cached = known.get(block);
    if (cached !== undefined) return cached;
    const time = Number((await client.getBlock({ blockNumber: block })).timestamp);
    known.set(block, time);
    return time;
  };
  // Spans [lo, hi] of indexes whose end blocks' times are known; split until each span lies in one hour.
  const spans: [number, number][] = [[0, blocks.length - 1]];
  for (let span = spans.pop(); span !== undefined; span = spans.pop()) {
    const [lo, hi] = span;
    const hourLo = hourOf(await timeOf(blocks[lo]));
    const hourHi = hourOf(await timeOf(blocks[hi]));
    if (hourLo === hourHi) {
      for (let i = lo; i <= hi; i++) hours.set(blocks[i], hourLo);
    } else if (hi - lo <= 1) {
      hours.set(blocks[lo], hourLo);
      hours.set(blocks[hi], hourHi);
    } else {
      const mid = (lo + hi) >> 1;
      spans.push([mid, hi], [lo, mid]);
    }
  }
  return hours;
}

/**
 * The exact timestamp of each block (one request per block not already known): for the few logs that need their
 * own time, such as the registry's events.
 *
 * @param {@link BlockTimesParameters}
 */
export async function getBlockTimes(parameters: BlockTimesParameters): Promise<Map<bigint, number>> {
  const { client, known } = parameters;
  const times = new Map<bigint, number>();
  for (const block of new Set(parameters.blocks)) {
    let time = known.get(block);
    if (time === undefined) {
      time = Number((await client.getBlock({ blockNumber: block })).timestamp);
      known.set(block, time);
    }
    times.set(block, time);
  }
  return times;
}
