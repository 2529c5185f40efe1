import * as z from "zod/v4";
import type { PoolDimensions, StaleEntry } from "../internal/poolDimensions";

/**
 * The response shapes of the read resources, declared once, in zod, one file per resource: the REST route answers
 * the JSON Schema derived from a shape (`src/service/schemas/fromZod.ts`: its response schema, hence the OpenAPI
 * document) and the MCP tool declares the same shape as its output schema (the SDK's `registerTool` takes zod; it
 * derives `tools/list` the same way). Each shape describes exactly its reader's result: `satisfies
 * z.ZodType<…ReturnType>` makes the compiler check it. This file holds the parts the shapes share.
 */

/** `T` as JSON sees it: viem's `0x${string}` addresses are plain strings (for `satisfies z.ZodType<Json<T>>`). */
export type Json<T> = T extends `0x${string}`
  ? string
  : T extends (infer U)[]
    ? Json<U>[]
    : T extends object
      ? { [K in keyof T]: Json<T[K]> }
      : T;

/** A non-negative safe integer. */
export const uint = (description: string) => z.int().min(0).describe(description);

/** `schema` or null ("not measured" / "no data", never zero). */
export const nullable = <T extends z.ZodType>(schema: T, description?: string) =>
  description === undefined ? schema.nullable() : schema.nullable().describe(description);

/** A UTC day, `YYYY-MM-DD`. */
export const utcDate = (description = "UTC day, YYYY-MM-DD") =>
  z
    .string()
    .regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/)
    .describe(description);

/** A pool's qualified id. */
export const poolId = (description = "eip155:<chainId>:<address>") => z.string().describe(description);

/** A value held out of a total because it is stale, published beside it with its age. */
export const StaleEntrySchema = z.strictObject({
  id: z.string().describe("the pool's qualified id (or the feed figure's id)"),
  field: z.string().describe("the dimension held out, e.g. depthUsd"),
  value: nullable(z.number()),
  observedAt: nullable(uint("Unix seconds of the observation"), "null when its time was never recorded"),
}) satisfies z.ZodType<StaleEntry>;

const DIMENSION = z.enum(["depthUsd", "volume24hUsd", "yieldPct", "exitabilityUsd"]);
const observed = nullable(uint("Unix seconds"));

/** A pool with its four dimensions, each with its own observation time (liquidity map, compare). */
export const PoolDimensionsSchema = z.strictObject({
  id: poolId(),
  chainId: uint("chain id"),
  address: z.string().describe("lower case"),
  symbol: z.string(),
  protocol: z.string().describe("the venue"),
  kind: z.enum(["amm", "lending"]),
  depthUsd: nullable(z.number(), "USD the pool holds now (lending: supplied − borrowed); null when not measured"),
  volume24hUsd: nullable(z.number(), "USD volume of the last 24 h of the pool's own Swap logs (AMM); lending: null"),
  yieldPct: nullable(
    z.number(),
    "APY in percent (AMM: base + reward from the yields feed; lending: the supply rate, already a percent)",
  ),
  exitabilityUsd: nullable(z.number(), "lending: supplied − borrowed, exact; AMM: null (not exact there)"),
  observedAt: z
    .strictObject({ depthUsd: observed, volume24hUsd: observed, yieldPct: observed, exitabilityUsd: observed })
    .describe("when each dimension was observed; null when not measured"),
  staleFields: z
    .array(DIMENSION)
    .describe("dimensions older than the freshness window: held out of totals and of `largest`"),
  stale: z.boolean().describe("true when any measured dimension is stale (staleFields is not empty)"),
  lending: nullable(
    z.strictObject({
      supplyAprPct: nullable(z.number(), "the supply rate, percent a year, not compounded (the lending yieldPct)"),
      borrowAprPct: nullable(z.number(), "the variable borrow rate, percent a year, not compounded"),
      utilisation: nullable(z.number().min(0), "borrowed ÷ supplied (0–1); null when nothing is supplied"),
      observedAt: nullable(uint("Unix seconds of the on-chain reading")),
      stale: z.boolean().describe("older than the freshness window"),
    }),
    "lending: the reserve's rates (Aave's annual rates as read, APR) and utilisation; AMM: null",
  ),
  yieldSplit: nullable(
    z.strictObject({
      basePct: nullable(z.number(), "base APY in percent (the pool's own yield, e.g. trading fees)"),
      rewardPct: nullable(z.number(), "reward APY in percent (incentives)"),
    }),
    "AMM: the yields feed's split of yieldPct, from the same feed row (observed with it); null when the feed gave neither part, and for lending",
  ),
}) satisfies z.ZodType<PoolDimensions>;
