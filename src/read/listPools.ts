import { isStale } from "../model/freshness";
import { listLatestClaims } from "../storage/attestations";
import { listPools as listStoredPools } from "../storage/pools";
import type { ReadContext } from "./context";
import { defineSurface } from "./defineSurface";
import { storedNoAttestationReason } from "./internal/explainNoAttestation";
import { poolIdentity, type PoolIdentity } from "./internal/poolIdentity";
import { PoolsSchema } from "./schemas/pools";
import { AS_OF, UNITS, freshnessRule } from "./sentences";

/** One tracked pool as every surface lists it. */
export type PoolListItem = PoolIdentity & {
  depthUsd: number | null;
  /** Unix seconds of the depth observation. */
  observedAt: number | null;
  /** Older than the freshness window, or never observed: held out of totals. */
  stale: boolean;
  /** Days of the pool's latest attestation's claim, or null when it has none. */
  horizon: number | null;
  /** 0–1, of the latest attestation, or null. */
  confidence: number | null;
  /** Unix seconds: the latest attestation's expiry, or null. */
  expiry: number | null;
  /**
   * Why the pool has no attestation, from its row (the reason `GET /api/v1/pool/{pool}` gives, when the issuer has
   * judged it); null when it has one.
   */
  noAttestationReason: string | null;
};

export type ListPoolsReturnType = {
  pools: PoolListItem[];
  /** Sum over fresh depths only. */
  total: { depthUsd: number; pools: number };
  /** The stale depths, held out of the total and published beside it. */
  heldOut: { depthUsd: number; pools: string[] };
  freshnessWindowS: number;
  asOf: number;
};

/**
 * Every tracked pool with its depth and `stale` flag, and the horizon, confidence and expiry of its latest attestation
 * (null when none), ordered by chain then address. Stale depths are never summed: they are held out of
 * `total` and listed in `heldOut` (spec §3 rule 1).
 *
 * @param context the {@link ReadContext}.
 * @returns {@link ListPoolsReturnType}
 * @example
 * import { listPools } from "./read/listPools";
 * const { pools, total } = await listPools({ db: store.db, freshnessWindowS: 3600, now: () => Date.now() / 1000 });
 */
export async function listPools({ db, freshnessWindowS, now }: ReadContext): Promise<ListPoolsReturnType> {
  const at = now();
  const [records, claims] = await Promise.all([listStoredPools(db), listLatestClaims(db)]);
  const claimOf = new Map(claims.map((claim) => [`${claim.chainId}:${claim.address}`, claim]));
  const pools: PoolListItem[] = records.map((row) => {
    const observedAt = row.depthObservedAt;
    const claim = claimOf.get(`${row.chainId}:${row.address.toLowerCase()}`);
    const stale = isStale({ observedAt, now: at, windowS: freshnessWindowS });
    return {
      ...poolIdentity(row),
      depthUsd: row.depthUsd,
      observedAt,
      stale,
      horizon: claim?.horizon ?? null,
      confidence: claim?.confidence ?? null,
      expiry: claim?.expiry ?? null,
      noAttestationReason:
        claim === undefined
          ? (storedNoAttestationReason(row, stale) ?? "no issuing pass has judged this pool yet.")
          : null,
    };
  });
  const fresh = pools.filter((pool) => !pool.stale && pool.depthUsd !== null);
  const stale = pools.filter((pool) => pool.stale);
  return {
    pools,
    total: { depthUsd: sum(fresh.map((pool) => pool.depthUsd as number)), pools: fresh.length },
    heldOut: {
      depthUsd: sum(stale.filter((pool) => pool.depthUsd !== null).map((pool) => pool.depthUsd as number)),
      pools: stale.map((pool) => pool.id),
    },
    freshnessWindowS,
    asOf: at,
  };
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** The surface, declared once: `GET /api/v1/pools` and the MCP tool `list_pools` are derived from it. */
export const surface = defineSurface({
  title: "List tracked pools",
  label: "List tracked pools",
  description: ({ freshnessWindowS }) =>
    [
      "Every pool the service tracks (id eip155:<chainId>:<address>, chain, address, symbol, venue, kind amm or",
      "lending) with its current depth in USD, when that depth was observed and whether it is stale, and the horizon",
      "(days), confidence (0 to 1) and expiry of its latest attestation (null when none); `total` sums the",
      "fresh depths and `heldOut` lists the stale ones beside it. Start here: pass a pool's `id` to get_attestation or",
      `compare_pools. ${UNITS} ${freshnessRule(freshnessWindowS)}`,
      AS_OF,
    ].join(" "),
  parameters: {},
  tags: ["pools"],
  output: PoolsSchema,
  errors: [429, 500],
  cacheKey: "pools",
  read: (context) => listPools(context),
});
