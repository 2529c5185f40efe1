import swagger from "@fastify/swagger";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/**
 * JSON Schema's numeric `exclusiveMinimum` / `exclusiveMaximum` (what TypeBox, zod and Ajv write) in the form OpenAPI
 * 3.0 takes: the bound in `minimum` / `maximum` and `exclusiveMinimum: true`. Every other member is kept as it is;
 * the document is walked whole (paths, components), in place: hand it a copy.
 */
export function toOpenApi30Bounds<T>(node: T): T {
  if (Array.isArray(node)) {
    for (const item of node) toOpenApi30Bounds(item);
  } else if (node !== null && typeof node === "object") {
    const schema = node as Record<string, unknown>;
    for (const [exclusive, bound] of [
      ["exclusiveMinimum", "minimum"],
      ["exclusiveMaximum", "maximum"],
    ] as const) {
      if (typeof schema[exclusive] === "number") {
        schema[bound] = schema[exclusive];
        schema[exclusive] = true;
      }
    }
    for (const value of Object.values(schema)) toOpenApi30Bounds(value);
  }
  return node;
}

/**
 * Collects every route's TypeBox schemas into an OpenAPI 3.0.3 document (served at `/api/v1/openapi.json`), valid for
 * that version (checked in the tests by a validator): bounds in the 3.0 form, one server, this origin.
 */
export default fp(
  async function swaggerPlugin(fastify: FastifyInstance) {
    await fastify.register(swagger, {
      // Shared schemas keep their $id as the component name (`#/components/schemas/Error`).
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === "string" ? json.$id : `def-${i}`),
      },
      openapi: {
        openapi: "3.0.3",
        info: {
          title: "Signed attestation service",
          version: "1.0.0",
          description:
            "Pre-signed attestations of pool liquidity horizons (EIP-191 v1, plus EIP-712 v2 when a registry is configured). Verify offline against GET /api/v1/attester.",
        },
        tags: [
          { name: "attestations", description: "Signed attestations and their verification" },
          { name: "pools", description: "Tracked pools" },
          { name: "service", description: "Probes and metadata" },
          { name: "liquidity", description: "Keyed writes: liquidity requests (Authorization: Bearer <API key>)" },
          { name: "alerts", description: "Keyed: alert subscriptions (webhooks, Standard Webhooks signatures)" },
        ],
        // The API is served from wherever this document is: its own origin.
        servers: [{ url: "/", description: "this service" }],
        components: {
          securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "an API key (docs/keys.md)" } },
        },
      },
      // On a copy: the route schemas the document was built from also validate requests (as JSON Schema).
      transformObject: (documentObject) =>
        toOpenApi30Bounds(
          structuredClone(
            "openapiObject" in documentObject ? documentObject.openapiObject : documentObject.swaggerObject,
          ),
        ),
    });
  },
  { name: "swagger" },
);
