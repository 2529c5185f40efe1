import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getHealth } from "../../../../../read/getHealth";
import { errorResponses } from "../../../../schemas/error";
import { HealthResponseSchema } from "../../../../schemas/health";

/** `GET /api/v1/health`: for probes. 200 when the store answers (503 otherwise, via the error handler). */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext } = fastify;
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
      return getHealth(readContext);
    },
  );
};

export default plugin;
