import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getActivity } from "../../../../../read/getActivity";
import { splitList } from "../../../../../read/splitList";
import { ActivityQuerySchema, ActivityResponseSchema } from "../../../../schemas/activity";
import { errorResponses } from "../../../../schemas/error";
import { sendJson } from "../../../../sendJson";

/** `GET /api/v1/activity?limit=N&cursor=C&kind=k1,k2`: the activity log, newest first, paged by an opaque cursor. */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext, responseCache } = fastify;
  fastify.get(
    "/",
    {
      schema: {
        summary: "Activity feed, newest first",
        description:
          "Follow `next` for older events: pages neither skip nor repeat while new events arrive. A cursor this service did not hand out is 400 INVALID_CURSOR.",
        tags: ["market"],
        querystring: ActivityQuerySchema,
        response: { 200: ActivityResponseSchema, ...errorResponses(400, 429, 500, 503) },
      },
    },
    async function activity(request, reply) {
      const { limit, cursor = null, kind } = request.query;
      const kinds = splitList(kind);
      const key = `activity:${limit}:${cursor ?? ""}:${kinds.join(",")}`;
      return sendJson(reply, await responseCache.json(key, () => getActivity(readContext, { limit, cursor, kinds })));
    },
  );
};

export default plugin;
