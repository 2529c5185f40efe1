/** Where one contract's log reading resumes. */
export interface LogRangeMember {
  /** Lower-case address. */
  address: string;
  /** The first block not read yet. */
  nextBlock: bigint;
}

/** A block range `[fromBlock, toBlock]`, both inclusive. */
export interface BlockRange {
  fromBlock: bigint;
  toBlock: bigint;
}

/**
 * Contracts whose cursors lie within one range of each other, read together: one `eth_getLogs` per range with all
 * their addresses. Each member keeps only its own logs at or after its `nextBlock`.
 */
export interface LogRangeGroup {
  members: LogRangeMember[];
  /** Consecutive ranges from the group's oldest cursor, as many as the budget allows. */
  ranges: BlockRange[];
  /** Whether the ranges reach `toBlock` (otherwise the members catch up over the next passes). */
  complete: boolean;
}

/** Parameters of {@link planLogRanges}. */
export interface PlanLogRangesParameters {
  members: readonly LogRangeMember[];
  /** The pass's pinned block: nothing after it is read. */
  toBlock: bigint;
  /** Most blocks in one request (`eth_getLogs` span). */
  rangeBlocks: number;
  /** Most requests in this plan (the pass's budget for this chain). */
  maxRanges: number;
}

/**
 * Plans the `eth_getLogs` requests of one chain: members already past `toBlock` need none; the others are grouped
 * by cursor (newest first; a group takes every cursor within `rangeBlocks` of its newest one) and each group gets
 * consecutive ranges of at most `rangeBlocks` blocks from its oldest cursor to `toBlock`. The budget goes to the
 * newest group first, so pools that are up to date stay fresh while a laggard (a new pool's lookback, a long outage)
 * catches up over several passes. Requests grow with ranges and groups, never with the number of pools.
 *
 * @param {@link PlanLogRangesParameters}
 * @example
 * planLogRanges({ members: [{ address: "0xaa…", nextBlock: 100n }], toBlock: 4500n, rangeBlocks: 2000, maxRanges: 10 });
 * // [{ members: [...], ranges: [{100n, 2099n}, {2100n, 4099n}, {4100n, 4500n}], complete: true }]
 */
export function planLogRanges(parameters: PlanLogRangesParameters): LogRangeGroup[] {
  const { toBlock, maxRanges } = parameters;
  const span = BigInt(Math.max(1, Math.floor(parameters.rangeBlocks)));
  const pending = parameters.members
    .filter((m) => m.nextBlock <= toBlock)
    .sort((a, b) => (a.nextBlock > b.nextBlock ? -1 : a.nextBlock < b.nextBlock ? 1 : a.address < b.address ? -1 : 1));
  const groups: LogRangeMember[][] = [];
  for (const member of pending) {
    const current = groups[groups.length - 1];
    if (current && current[0].nextBlock - member.nextBlock < span) current.push(member);
    else groups.push([member]);
  }
  let budget = Math.max(0, Math.floor(maxRanges));
  return groups.map((members) => {
    const ranges: BlockRange[] = [];
    let from = members[members.length - 1].nextBlock;
    while (from <= toBlock && budget > 0) {
      const to = from + span - 1n < toBlock ? from + span - 1n : toBlock;
      ranges.push({ fromBlock: from, toBlock: to });
      budget--;
      from = to + 1n;
    }
    return { members, ranges, complete: from > toBlock };
  });
}
