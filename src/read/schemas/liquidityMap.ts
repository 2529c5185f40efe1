import * as z from "zod/v4";
import { PoolDimensionsSchema, StaleEntrySchema, nullable, poolId, uint, utcDate } from "./common";

/** `get_liquidity_map` (`GET /api/v1/liquidity-map`). */
export const LiquidityMapSchema = z.strictObject({
  asOf: uint("Unix seconds"),
  freshnessWindowS: uint("seconds"),
  chains: z
    .array(
      z.strictObject({
        chainId: uint("chain id"),
        totalDepthUsd: nullable(z.number(), "USD: sum of the chain's fresh depths; null when none is fresh"),
        depthPools: uint("pools whose fresh depth is in the total"),
        poolsTotal: uint("pools the chain tracks; `pools` lists `limit` of them from `offset`, by id"),
        pools: z.array(PoolDimensionsSchema).describe("by id"),
        stale: z.array(StaleEntrySchema).describe("the chain's stale depths, held out of the total"),
      }),
    )
    .describe("by chain id"),
  expiryCalendar: z
    .array(
      z.strictObject({
        date: utcDate("UTC day the pools' last known campaign that is not borrow-side ends"),
        depthUsd: nullable(z.number(), "USD: sum of the fresh depths below, each pool once; null when none is fresh"),
        pools: z.array(
          z.strictObject({
            id: poolId(),
            depthUsd: z.number().nullable(),
            stale: z.boolean().describe("the depth is stale: held out of the date's sum"),
            campaigns: z.array(
              z.strictObject({
                id: z.string().describe("Merkl's campaign id: unique per distribution chain only"),
                distributionChainId: uint("chain whose Merkl distributor pays the rewards; the key is it and id"),
                name: z.string().nullable(),
                type: nullable(z.string(), "the opportunity's type; a borrow-side one (BORROW) never places the pool"),
                status: z.string().nullable(),
                startsAt: uint("Unix seconds").nullable(),
                endsAt: uint("Unix seconds").nullable(),
              }),
            ),
          }),
        ),
      }),
    )
    .describe("by date, oldest first; each pool appears once"),
  stale: z.array(StaleEntrySchema).describe("every stale value of the payload"),
});
