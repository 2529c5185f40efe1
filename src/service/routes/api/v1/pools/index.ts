import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { listPools } from "../../../../../read/listPools";
import { errorResponses } from "../../../../schemas/error";
import { PoolsResponseSchema } from "../../../../schemas/pools";
import { sendJson } from "../../../../sendJson";

/** `GET /api/v1/pools`: every tracked pool with its depth and `stale` flag; stale depths held out of the total. */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext, responseCache } = fastify;
  fastify.get(
    "/",
    {
      schema: {
        summary: "List tracked pools",
        tags: ["pools"],
        response: { 200: PoolsResponseSchema, ...errorResponses(429, 500) },
      },
    },
    async function getPools(_request, reply) {
      return sendJson(reply, await responseCache.json("pools", () => listPools(readContext)));
    },
  );
};

export default plugin;
