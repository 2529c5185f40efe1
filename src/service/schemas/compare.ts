import { Type } from "@sinclair/typebox";
import { CompareSchema } from "../../read/schemas/compare";
import { fromZod } from "./fromZod";

/** `GET /api/v1/compare?pools=a,b,…` query. */
export const CompareQuerySchema = Type.Object({
  pools: Type.String({
    minLength: 1,
    maxLength: 1000,
    description: "1 to 4 distinct pool ids separated by commas, any of the three id shapes",
  }),
});

/** `GET /api/v1/compare` answer: its one declaration, `src/read/schemas/compare.ts`, as JSON Schema. */
export const CompareResponseSchema = fromZod(CompareSchema, { title: "Comparison" });
