import { Type } from "@sinclair/typebox";
import { PoolClaimsSchema } from "../../read/schemas/accuracy";
import { fromZod } from "./fromZod";

/** `GET /api/v1/pool/{pool}/claims` query. */
export const PoolClaimsQuerySchema = Type.Object({
  cursor: Type.Optional(Type.String({ maxLength: 100, description: "the `next` of the previous page, unchanged" })),
});

/** `GET /api/v1/pool/{pool}/claims` answer: its one declaration, `src/read/schemas/accuracy.ts`, as JSON Schema. */
export const PoolClaimsResponseSchema = fromZod(PoolClaimsSchema, { title: "PoolClaims" });
