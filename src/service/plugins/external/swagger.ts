import swagger from "@fastify/swagger";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/** Collects every route's TypeBox schemas into an OpenAPI 3 document (served at `/api/v1/openapi.json`). */
export default fp(
  async function swaggerPlugin(fastify: FastifyInstance) {
    await fastify.register(swagger, {
      // Shared schemas keep their $id as the component name (`#/components/schemas/Error`).
      refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
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
        components: {
          securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "an API key (docs/keys.md)" } },
        },
      },
    });
  },
  { name: "swagger" },
);
