import { PoolNotFoundError } from "../errors/poolLookup";
import { capsDepthClaim, listCampaignRecordsForPools, type CampaignRecord } from "../storage/campaigns";
import { getPoolRecord } from "../storage/pools";
import type { ReadContext } from "./context";
import { defineSurface } from "./defineSurface";
import { resolvePool } from "./resolvePool";
import { PoolCampaignsSchema } from "./schemas/poolCampaigns";

export type GetPoolCampaignsReturnType = {
  /** `eip155:<chainId>:<address>`. */
  pool: string;
  campaigns: (CampaignRecord & { capsDepthClaim: boolean })[];
};

/**
 * The Merkl campaigns stored for a pool, each with whether its end caps the pool's attested horizon.
 *
 * @throws `InvalidPoolIdError`, `PoolNotFoundError`, `AmbiguousPoolError` (see `resolvePool`).
 */
export async function getPoolCampaigns(
  context: ReadContext,
  { id }: { id: string },
): Promise<GetPoolCampaignsReturnType> {
  const resolved = await resolvePool(context, { id });
  const pool = await getPoolRecord(context.db, resolved.chainId, resolved.address);
  if (!pool) throw new PoolNotFoundError({ pool: resolved.id });
  const [campaigns = []] =
    pool.merklId === null
      ? []
      : await listCampaignRecordsForPools(context.db, [{ chainId: resolved.chainId, merklId: pool.merklId }]);
  return { pool: resolved.id, campaigns: campaigns.map((c) => ({ ...c, capsDepthClaim: capsDepthClaim(c) })) };
}

/** The surface, declared once: `GET /api/v1/pool/{pool}/campaigns` and the MCP tool `get_pool_campaigns`. */
export const surface = defineSurface({
  title: "A pool's incentive campaigns",
  label: "A pool's campaigns",
  description: [
    "The Merkl incentive campaigns stored for a pool: id, distributionChainId, name, type, status, startsAt and",
    "endsAt (Unix seconds or null), and capsDepthClaim (whether the campaign's end caps the attested horizon).",
    "Errors: INVALID_POOL_ID, POOL_NOT_FOUND, AMBIGUOUS_POOL.",
  ].join(" "),
  parameters: { pool: { kind: "pool" } },
  tags: ["market"],
  output: PoolCampaignsSchema,
  outputTitle: "PoolCampaigns",
  errors: [400, 404, 409, 429, 500],
  cacheKey: "pool-campaigns",
  read: (context, { pool }) => getPoolCampaigns(context, { id: pool }),
});
