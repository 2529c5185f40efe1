import { Type } from "@sinclair/typebox";
import { uint } from "./common";

/** `GET /api/v1/health`. */
export const HealthResponseSchema = Type.Object({
  status: Type.Literal("ok"),
  pools: Type.Integer(),
  attestations: Type.Integer(),
  lastIngest: Type.Union([
    Type.Object({
      startedAt: uint("Unix seconds"),
      finishedAt: Type.Union([uint("Unix seconds"), Type.Null()]),
      status: Type.String(),
    }),
    Type.Null(),
  ]),
});
