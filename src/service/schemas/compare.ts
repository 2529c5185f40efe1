import { Type } from "@sinclair/typebox";
import { uint } from "./common";
import { PoolDimensionsSchema, StaleEntrySchema, closed, poolId } from "./market";

/** `GET /api/v1/compare?pools=a,b,…` query. */
export const CompareQuerySchema = Type.Object({
  pools: Type.String({
    minLength: 1,
    maxLength: 1000,
    description: "1 to 4 distinct pool ids separated by commas, any of the three id shapes",
  }),
});

const ids = Type.Array(poolId());

/** `GET /api/v1/compare`. */
export const CompareResponseSchema = closed(
  {
    asOf: uint("Unix seconds"),
    freshnessWindowS: uint("seconds"),
    pools: Type.Array(PoolDimensionsSchema, { description: "in the order asked" }),
    largest: closed(
      { depthUsd: ids, volume24hUsd: ids, yieldPct: ids, exitabilityUsd: ids },
      { description: "per field, the pool(s) with the largest fresh value (ties list all; [] when none is fresh)" },
    ),
    stale: Type.Array(StaleEntrySchema),
  },
  { title: "Comparison" },
);
