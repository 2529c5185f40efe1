import { Type, type ObjectOptions, type TProperties, type TSchema } from "@sinclair/typebox";
import { uint } from "./common";

/** Schema parts shared by the market read API (volume, liquidity map, compare, roadmap, launch, activity). */

/** An object that lists every member (the responses are documented exactly; extra members are a schema change). */
export const closed = <T extends TProperties>(properties: T, options: ObjectOptions = {}) =>
  Type.Object(properties, { additionalProperties: false, ...options });

/** `T` or null ("not measured" / "no data", never zero). */
export const nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description === undefined ? {} : { description });

/** A UTC day, `YYYY-MM-DD`. */
export const utcDate = (description = "UTC day, YYYY-MM-DD") =>
  Type.String({ pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description });

/** A pool's qualified id. */
export const poolId = (description = "eip155:<chainId>:<address>") => Type.String({ description });

/** A value held out of a total because it is stale, published beside it with its age. */
export const StaleEntrySchema = closed({
  id: Type.String({ description: "the pool's qualified id (or the feed figure's id)" }),
  field: Type.String({ description: "the dimension held out, e.g. depthUsd" }),
  value: nullable(Type.Number()),
  observedAt: nullable(uint("Unix seconds of the observation"), "null when its time was never recorded"),
});

const DIMENSION_DESCRIPTIONS = {
  depthUsd: "USD the pool holds now (lending: supplied − borrowed); null when not measured",
  volume24hUsd: "USD volume of the last 24 h of the pool's own Swap logs (AMM); lending: null",
  yieldPct: "APY in percent (AMM: base + reward from the yields feed; lending: the supply rate, already a percent)",
  exitabilityUsd: "lending: supplied − borrowed, exact; AMM: null (not exact there)",
} as const;

/** A pool with its four dimensions, each with its own observation time; shared by the liquidity map and compare. */
export const PoolDimensionsSchema = closed({
  id: poolId(),
  chainId: uint("chain id"),
  address: Type.String(),
  symbol: Type.String(),
  protocol: Type.String({ description: "the venue" }),
  kind: Type.Union([Type.Literal("amm"), Type.Literal("lending")]),
  depthUsd: nullable(Type.Number(), DIMENSION_DESCRIPTIONS.depthUsd),
  volume24hUsd: nullable(Type.Number(), DIMENSION_DESCRIPTIONS.volume24hUsd),
  yieldPct: nullable(Type.Number(), DIMENSION_DESCRIPTIONS.yieldPct),
  exitabilityUsd: nullable(Type.Number(), DIMENSION_DESCRIPTIONS.exitabilityUsd),
  observedAt: closed(
    {
      depthUsd: nullable(uint("Unix seconds")),
      volume24hUsd: nullable(uint("Unix seconds")),
      yieldPct: nullable(uint("Unix seconds")),
      exitabilityUsd: nullable(uint("Unix seconds")),
    },
    { description: "when each dimension was observed; null when not measured" },
  ),
  staleFields: Type.Array(
    Type.Union([
      Type.Literal("depthUsd"),
      Type.Literal("volume24hUsd"),
      Type.Literal("yieldPct"),
      Type.Literal("exitabilityUsd"),
    ]),
    { description: "dimensions older than the freshness window: held out of totals and of `largest`" },
  ),
  stale: Type.Boolean({ description: "true when any measured dimension is stale (staleFields is not empty)" }),
});
