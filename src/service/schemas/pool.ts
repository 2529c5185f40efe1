import { Type } from "@sinclair/typebox";

/** The `{pool}` path parameter: every id shape; `parsePoolId` rejects every malformed id alike (INVALID_POOL_ID). */
export const PoolParamsSchema = Type.Object({
  // No maxLength: the router caps it at 500.
  pool: Type.String({ description: "pool identifier", examples: ["eip155:1:0x…"] }),
});
