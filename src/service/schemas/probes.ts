import { Type, type Static } from "@sinclair/typebox";

/**
 * The probes' answers (docs/operations.md#probes-metrics-and-logs). They are for the orchestrator and the load
 * balancer, not API clients: the routes are hidden from `/api/v1/openapi.json` and documented in docs/operations.md.
 */

/** `GET /livez` 200. */
export const LivezSchema = Type.Object({ live: Type.Literal(true) }, { additionalProperties: false });

const readyzFields = {
  role: Type.Union([Type.Literal("all"), Type.Literal("api"), Type.Literal("worker")], {
    description: "SERVICE_ROLE",
  }),
  instance: Type.String({ description: "INSTANCE_ID" }),
  leader: Type.Union([Type.Boolean(), Type.Null()], {
    description: "holds the ingestion lease (null on an api process)",
  }),
  lastPassAt: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
    description: "when this process last finished an ingestion pass, Unix seconds; null before its first",
  }),
};

/** `GET /readyz` 200: ready for traffic. */
export const ReadyzOkSchema = Type.Object(
  { ready: Type.Literal(true), ...readyzFields },
  { additionalProperties: false },
);

/** `GET /readyz` 503: not ready, and why ("starting", "draining", "store unavailable", "schema behind"). */
export const ReadyzNotReadySchema = Type.Object(
  { ready: Type.Literal(false), ...readyzFields, reasons: Type.Array(Type.String(), { minItems: 1 }) },
  { additionalProperties: false },
);

export type ReadyzBody = Static<typeof ReadyzOkSchema> | Static<typeof ReadyzNotReadySchema>;
