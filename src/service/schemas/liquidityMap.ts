import { Type } from "@sinclair/typebox";
import { LiquidityMapSchema } from "../../read/schemas/liquidityMap";
import { fromZod } from "./fromZod";

/** `GET /api/v1/liquidity-map` query. */
export const LiquidityMapQuerySchema = Type.Object({
  chainId: Type.Optional(Type.Integer({ minimum: 1, description: "only this chain" })),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 50, description: "pools listed per chain, by id" }),
  offset: Type.Integer({ minimum: 0, default: 0, description: "pools skipped per chain before listing" }),
});

/** `GET /api/v1/liquidity-map` answer: its one declaration, `src/read/schemas/liquidityMap.ts`, as JSON Schema. */
export const LiquidityMapResponseSchema = fromZod(LiquidityMapSchema, { title: "LiquidityMap" });
