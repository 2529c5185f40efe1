import { Type } from "@sinclair/typebox";
import { LIQUIDITY_MAP_PARAMETERS } from "../../read/getLiquidityMap";
import { LiquidityMapSchema } from "../../read/schemas/liquidityMap";
import { fromZod } from "./fromZod";

/** `GET /api/v1/liquidity-map` query. */
export const LiquidityMapQuerySchema = Type.Object({
  chainId: Type.Optional(Type.Integer(LIQUIDITY_MAP_PARAMETERS.chainId)),
  limit: Type.Integer(LIQUIDITY_MAP_PARAMETERS.limit),
  offset: Type.Integer(LIQUIDITY_MAP_PARAMETERS.offset),
});

/** `GET /api/v1/liquidity-map` answer: its one declaration, `src/read/schemas/liquidityMap.ts`, as JSON Schema. */
export const LiquidityMapResponseSchema = fromZod(LiquidityMapSchema, { title: "LiquidityMap" });
