import { Type } from "@sinclair/typebox";
import { ModelClaimsSchema } from "../../read/schemas/modelClaims";
import { fromZod } from "./fromZod";

/** `GET /api/v1/model/claims` query. */
export const ModelClaimsQuerySchema = Type.Object({
  cursor: Type.Optional(Type.String({ maxLength: 100, description: "the `next` of the previous page, unchanged" })),
});

/** `GET /api/v1/model/claims` answer: its one declaration, `src/read/schemas/modelClaims.ts`, as JSON Schema. */
export const ModelClaimsResponseSchema = fromZod(ModelClaimsSchema, { title: "ModelClaims" });
