import * as z from "zod/v4";
import { nullable, poolId, uint } from "./common";

const PoolCampaignSchema = z.strictObject({
  id: z.string().describe("Merkl's campaign id, unique per distributionChainId"),
  distributionChainId: uint("the chain whose Merkl distributor pays the rewards"),
  name: nullable(z.string()),
  type: nullable(z.string(), "the opportunity's type, e.g. UNISWAP_V2 or AAVE_BORROW"),
  status: nullable(z.string()),
  startsAt: nullable(uint("Unix seconds")),
  endsAt: nullable(uint("Unix seconds")),
  capsDepthClaim: z
    .boolean()
    .describe("whether its end caps the pool's attested horizon (a borrow-side type never does)"),
});

/** `get_pool_campaigns` (`GET /api/v1/pool/{pool}/campaigns`): the incentive campaigns on a pool. */
export const PoolCampaignsSchema = z.strictObject({
  pool: poolId(),
  campaigns: z.array(PoolCampaignSchema).describe("the Merkl campaigns stored for the pool, in storage's order"),
});
