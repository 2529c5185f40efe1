import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { HealthResponseSchema, errorResponses } from "../../../../schemas";

/** `GET /api/v1/health`: for probes. 200 when the store answers (503 otherwise, via the error handler). */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { poolsRepository } = fastify;
  fastify.get(
    "/",
    {
      schema: {
        summary: "Liveness and store status",
        tags: ["service"],
        response: { 200: HealthResponseSchema, ...errorResponses(429, 503) },
      },
    },
    async function health() {
      return { status: "ok" as const, ...(await poolsRepository.health()) };
    },
  );
};

export default plugin;
