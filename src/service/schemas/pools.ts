import { Type } from "@sinclair/typebox";
import { uint } from "./common";

const PoolRowSchema = Type.Object({
  id: Type.String({ description: "eip155:<chainId>:<address>" }),
  chainId: uint("chain id"),
  address: Type.String(),
  symbol: Type.String(),
  protocol: Type.String(),
  kind: Type.Union([Type.Literal("amm"), Type.Literal("lending")]),
  depthUsd: Type.Union([Type.Number(), Type.Null()]),
  observedAt: Type.Union([uint("Unix seconds of the depth observation"), Type.Null()]),
  stale: Type.Boolean({ description: "older than the freshness window (or never observed): held out of totals" }),
});

/** `GET /api/v1/pools`. */
export const PoolsResponseSchema = Type.Object({
  pools: Type.Array(PoolRowSchema),
  total: Type.Object({
    depthUsd: Type.Number({ description: "sum over fresh pools only" }),
    pools: Type.Integer({ description: "fresh pools counted" }),
  }),
  heldOut: Type.Object({
    depthUsd: Type.Number({ description: "the stale depths held out of the total, published beside it" }),
    pools: Type.Array(Type.String(), { description: "ids of stale pools" }),
  }),
  freshnessWindowS: uint("seconds"),
  asOf: uint("Unix seconds"),
});
