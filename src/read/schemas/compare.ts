import * as z from "zod/v4";
import { PoolDimensionsSchema, StaleEntrySchema, poolId, uint } from "./common";

const ids = z.array(poolId());

/** `compare_pools` (`GET /api/v1/compare`). */
export const CompareSchema = z.strictObject({
  asOf: uint("Unix seconds"),
  freshnessWindowS: uint("seconds"),
  pools: z.array(PoolDimensionsSchema).describe("in the order asked"),
  largest: z
    .strictObject({ depthUsd: ids, volume24hUsd: ids, yieldPct: ids, exitabilityUsd: ids })
    .describe("per field, the pool(s) with the largest fresh value (ties list all; [] when none is fresh)"),
  stale: z.array(StaleEntrySchema).describe("the compared pools' stale values, held out of `largest`"),
});
