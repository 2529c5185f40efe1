import { Type, type TSchema } from "@sinclair/typebox";

/** Every error body: `{"error": {"code", "message", …}}` with a stable string code. */
export const ErrorSchema = Type.Object(
  {
    error: Type.Object(
      {
        code: Type.String({ description: "stable machine-readable code, e.g. POOL_NOT_FOUND" }),
        message: Type.String({ description: "one line for humans" }),
        field: Type.Optional(Type.String({ description: "the request field that is wrong" })),
        candidates: Type.Optional(Type.Array(Type.String(), { description: "qualified ids (409)" })),
        reason: Type.Optional(Type.String({ description: "why there is no attestation yet (NO_ATTESTATION)" })),
        pool: Type.Optional(Type.String()),
        retryAfterMs: Type.Optional(Type.Number()),
      },
      { additionalProperties: true },
    ),
  },
  { $id: "Error", title: "Error" },
);

/** The error responses a route may give, by status. */
export const errorResponses = (...statuses: number[]): Record<number, TSchema> =>
  Object.fromEntries(statuses.map((status) => [status, Type.Ref("Error")]));
