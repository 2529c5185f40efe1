import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { PoolsResponseSchema, errorResponses } from "../../../../schemas";
import { sendJson } from "../../../../sendJson";

/** `GET /api/v1/pools`: every tracked pool with its depth and `stale` flag; stale depths held out of the total. */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { poolsRepository } = fastify;
  fastify.get(
    "/",
    {
      schema: {
        summary: "List tracked pools",
        tags: ["pools"],
        response: { 200: PoolsResponseSchema, ...errorResponses(429, 500) },
      },
    },
    async function listPools(_request, reply) {
      return sendJson(reply, await poolsRepository.poolsJson());
    },
  );
};

export default plugin;
