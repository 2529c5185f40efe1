import { MAX_COMPARED_POOLS, RepeatedPoolError, type NoPoolsError, type TooManyPoolsError } from "../errors/market";
import { PoolNotFoundError } from "../errors/poolLookup";
import { getPoolRecord } from "../storage/pools";
import type { ReadContext } from "./context";
import { defineSurface } from "./defineSurface";
import { checkPoolList } from "./internal/checkPoolList";
import {
  DIMENSIONS,
  isFreshValue,
  poolDimensions,
  staleEntriesOf,
  type Dimension,
  type PoolDimensions,
  type StaleEntry,
} from "./internal/poolDimensions";
import { resolvePool } from "./resolvePool";
import { CompareSchema } from "./schemas/compare";
import { AS_OF, UNITS, freshnessRule } from "./sentences";

export type ComparePoolsParameters = {
  /** 1 to 4 distinct pools, in any of the three id shapes, in the order they come back. */
  pools: readonly string[];
  /** The request field that holds the ids, named in errors. Default `"pools"`. */
  field?: string;
};

export type ComparePoolsReturnType = {
  asOf: number;
  freshnessWindowS: number;
  /** In the order asked. */
  pools: PoolDimensions[];
  /**
   * Per dimension, the pool(s) holding the largest FRESH value (ties list all; `[]` when no pool has a fresh one).
   * `yieldPct` compares like with like: the largest AMM APY and the largest lending supply rate each (an APY of fees and
   * rewards and a lending supply rate are different kinds of yield), so it names one pool per kind compared.
   */
  largest: Record<Dimension, string[]>;
  /** The compared pools' stale values, held out of `largest`. */
  stale: StaleEntry[];
};

export type ComparePoolsErrorType =
  NoPoolsError | TooManyPoolsError | RepeatedPoolError | import("./resolvePool").ResolvePoolErrorType;

/**
 * Up to four pools side by side, with their four dimensions, and for each dimension which pool(s) hold the largest
 * fresh value. Nothing is ranked: `largest` names a column per field, and the pools keep the order asked.
 *
 * @param context the {@link ReadContext}.
 * @param {@link ComparePoolsParameters}
 * @returns {@link ComparePoolsReturnType}
 * @throws {@link NoPoolsError} (none named), {@link TooManyPoolsError} (5 or more), `InvalidPoolIdError` (a malformed
 * id), {@link RepeatedPoolError} (the same pool twice, in any shapes), `PoolNotFoundError`, `AmbiguousPoolError`.
 * @example
 * import { comparePools } from "./read/comparePools";
 * const { pools, largest } = await comparePools(context, { pools: ["eip155:1:0xb4e1…", "8453:0x67ff…"] });
 */
export async function comparePools(
  context: ReadContext,
  { pools: ids, field = "pools" }: ComparePoolsParameters,
): Promise<ComparePoolsReturnType> {
  checkPoolList(ids, field);
  const at = context.now();
  const resolved: string[] = [];
  const pools: PoolDimensions[] = [];
  for (const id of ids) {
    const pool = await resolvePool(context, { id, field });
    if (resolved.includes(pool.id)) throw new RepeatedPoolError({ pool: pool.id, field });
    resolved.push(pool.id);
    const row = await getPoolRecord(context.db, pool.chainId, pool.address);
    if (!row) throw new PoolNotFoundError({ pool: pool.id });
    pools.push(poolDimensions(row, { now: at, windowS: context.freshnessWindowS }));
  }
  const largest = {} as Record<Dimension, string[]>;
  for (const dimension of DIMENSIONS) {
    const fresh = pools.filter((pool) => isFreshValue(pool, dimension));
    const groups =
      dimension === "yieldPct"
        ? (["amm", "lending"] as const).map((kind) => fresh.filter((pool) => pool.kind === kind))
        : [fresh];
    const top = groups.map((group) => Math.max(...group.map((pool) => pool[dimension] as number)));
    largest[dimension] = fresh
      .filter((pool) => groups.some((group, g) => group.includes(pool) && pool[dimension] === top[g]))
      .map((pool) => pool.id);
  }
  return {
    asOf: at,
    freshnessWindowS: context.freshnessWindowS,
    pools,
    largest,
    stale: pools.flatMap((pool) => staleEntriesOf(pool)),
  };
}

/** The surface, declared once: `GET /api/v1/compare` and the MCP tool `compare_pools` are derived from it. */
export const surface = defineSurface({
  title: "Compare pools",
  label: "Compare pools",
  description: ({ freshnessWindowS }) =>
    [
      `1 to ${MAX_COMPARED_POOLS} distinct pools side by side, in the order asked, with the four dimensions of the`,
      "liquidity map (depthUsd, volume24hUsd, yieldPct, exitabilityUsd, each with its observation time), and",
      "a lending reserve's `lending` (supplyAprPct, borrowAprPct, utilisation; null for AMMs), and `largest`: per dimension, the pool(s) holding the largest fresh value (ties list all; [] when none is fresh).",
      `Nothing is ranked or scored. ${UNITS} ${freshnessRule(freshnessWindowS)}`,
      "Errors: NO_POOLS, TOO_MANY_POOLS, REPEATED_POOL, INVALID_POOL_ID, POOL_NOT_FOUND, AMBIGUOUS_POOL.",
      AS_OF,
    ].join(" "),
  parameters: { pools: { kind: "pools" } },
  tags: ["market"],
  output: CompareSchema,
  outputTitle: "Comparison",
  errors: [400, 404, 409, 429, 500, 503],
  cacheKey: "compare",
  read: (context, { pools }) => comparePools(context, { pools }),
});
