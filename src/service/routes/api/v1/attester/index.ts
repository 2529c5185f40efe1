import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { AttesterResponseSchema } from "../../../../schemas/attester";
import { errorResponses } from "../../../../schemas/error";

/**
 * `GET /api/v1/attester`: the expected signer of every attestation, and the registry when one is configured; 503
 * `ATTESTER_UNKNOWN` (with `Retry-After`) from an api process that does not know it yet.
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    "/",
    {
      schema: {
        summary: "The attester address (the authoritative expected signer)",
        tags: ["attestations"],
        response: { 200: AttesterResponseSchema, ...errorResponses(429, 503) },
      },
    },
    async function getAttester() {
      return fastify.attester();
    },
  );
};

export default plugin;
