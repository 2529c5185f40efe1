import { Type } from "@sinclair/typebox";
import { AttestationSchema } from "../../read/schemas/attestation";
import { fromZod } from "./fromZod";

/** `GET /api/v1/pool/{pool}` answer: its one declaration, `src/read/schemas/attestation.ts`, as JSON Schema. */
export const AttestationResponseSchema = fromZod(AttestationSchema, { title: "Attestation" });

/** The `{pool}` path parameter: every id shape; `parsePoolId` rejects every malformed id alike (INVALID_POOL_ID). */
export const PoolParamsSchema = Type.Object({
  // No maxLength: the router caps it at 500.
  pool: Type.String({ description: "pool identifier", examples: ["eip155:1:0x…"] }),
});
