import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getRoadmap } from "../../../../../read/getRoadmap";
import { errorResponses } from "../../../../schemas/error";
import { RoadmapResponseSchema } from "../../../../schemas/roadmap";
import { sendJson } from "../../../../sendJson";

/** `GET /api/v1/roadmap`: the roadmap's items with counts computed from the store at request time. */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext, responseCache } = fastify;
  fastify.get(
    "/",
    {
      schema: {
        summary: "Roadmap with counts computed from the store",
        tags: ["market"],
        response: { 200: RoadmapResponseSchema, ...errorResponses(429, 500, 503) },
      },
    },
    async function roadmap(_request, reply) {
      return sendJson(reply, await responseCache.json("roadmap", () => getRoadmap(readContext)));
    },
  );
};

export default plugin;
