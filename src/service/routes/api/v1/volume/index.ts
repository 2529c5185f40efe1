import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getVolume } from "../../../../../read/getVolume";
import { errorResponses } from "../../../../schemas/error";
import { VolumeQuerySchema, VolumeResponseSchema } from "../../../../schemas/volume";
import { sendJson } from "../../../../sendJson";

/** `GET /api/v1/volume?days=N`: on-chain swap volume by day, venue × day, chain, venue and turnover; stale held out. */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext, responseCache } = fastify;
  fastify.get(
    "/",
    {
      schema: {
        summary: "Swap volume: daily series, venue heatmap, by chain, by venue, by turnover",
        description:
          "The window is `days` complete UTC days ending yesterday; today's partial day is in `today`, never summed. Pools whose volume is stale are held out of every total and listed in `stale`.",
        tags: ["market"],
        querystring: VolumeQuerySchema,
        response: { 200: VolumeResponseSchema, ...errorResponses(400, 429, 500, 503) },
      },
    },
    async function volume(request, reply) {
      const { days, turnoverLimit } = request.query;
      const key = `volume:${days}:${turnoverLimit}`;
      return sendJson(reply, await responseCache.json(key, () => getVolume(readContext, { days, turnoverLimit })));
    },
  );
};

export default plugin;
