import { Type } from "@sinclair/typebox";
import { uint } from "./common";
import { PoolDimensionsSchema, StaleEntrySchema, closed, nullable, poolId, utcDate } from "./market";

/** `GET /api/v1/liquidity-map` query. */
export const LiquidityMapQuerySchema = Type.Object({
  chainId: Type.Optional(Type.Integer({ minimum: 1, description: "only this chain" })),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 50, description: "pools listed per chain, by id" }),
  offset: Type.Integer({ minimum: 0, default: 0, description: "pools skipped per chain before listing" }),
});

/** `GET /api/v1/liquidity-map`. */
export const LiquidityMapResponseSchema = closed(
  {
    asOf: uint("Unix seconds"),
    freshnessWindowS: uint("seconds"),
    chains: Type.Array(
      closed({
        chainId: uint("chain id"),
        totalDepthUsd: nullable(Type.Number(), "sum of the chain's fresh depths; null when none is fresh"),
        depthPools: uint("pools whose fresh depth is in the total"),
        poolsTotal: uint("pools the chain tracks; `pools` lists `limit` of them from `offset`, by id"),
        pools: Type.Array(PoolDimensionsSchema, { description: "by id" }),
        stale: Type.Array(StaleEntrySchema, { description: "the chain's stale depths, held out of the total" }),
      }),
      { description: "by chain id" },
    ),
    expiryCalendar: Type.Array(
      closed({
        date: utcDate("UTC day the pools' last known campaign ends"),
        depthUsd: nullable(Type.Number(), "sum of the fresh depths below, each pool once; null when none is fresh"),
        pools: Type.Array(
          closed({
            id: poolId(),
            depthUsd: nullable(Type.Number()),
            stale: Type.Boolean({ description: "the depth is stale: held out of the date's sum" }),
            campaigns: Type.Array(
              closed({
                id: Type.String(),
                name: nullable(Type.String()),
                status: nullable(Type.String()),
                startsAt: nullable(uint("Unix seconds")),
                endsAt: nullable(uint("Unix seconds")),
              }),
            ),
          }),
        ),
      }),
      { description: "by date, oldest first; each pool appears once" },
    ),
    stale: Type.Array(StaleEntrySchema, { description: "every stale value of the payload" }),
  },
  { title: "LiquidityMap" },
);
