import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getLaunchPosition } from "../../../../../read/getLaunchPosition";
import { errorResponses } from "../../../../schemas/error";
import { LaunchResponseSchema } from "../../../../schemas/launch";
import { sendJson } from "../../../../sendJson";

/** `GET /api/v1/launch`: the lending market's launch gates, measured from the store; no date or time. */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext, responseCache } = fastify;
  fastify.get(
    "/",
    {
      schema: {
        summary: "Launch position of the lending market: gates and the one holding",
        description:
          "Gates in dependency order; `holding` is the first that is not clear. The payload carries no date.",
        tags: ["market"],
        response: { 200: LaunchResponseSchema, ...errorResponses(429, 500, 503) },
      },
    },
    async function launch(_request, reply) {
      return sendJson(reply, await responseCache.json("launch", () => getLaunchPosition(readContext)));
    },
  );
};

export default plugin;
