import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getActivity } from "../../../../read/getActivity";
import { renderActivityPage } from "../../../../web/pages/activity";
import { ActivityPageQuerySchema } from "../../../schemas/appPages";

/** `GET /app/activity?limit=N&cursor=C`: the activity log, paged by the API's cursor (`getActivity`). */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { dapp, readContext } = fastify;
  fastify.setErrorHandler(dapp.pageErrorHandler);
  fastify.get(
    "/",
    { schema: { hide: true, querystring: ActivityPageQuerySchema }, preHandler: fastify.requirePageSession },
    async function activityPage(request, reply) {
      const { limit, cursor = null } = request.query;
      const page = await getActivity(readContext, { limit, cursor });
      return dapp.sendPage(reply, renderActivityPage({ page, cursor, limit }, dapp.chrome(request)));
    },
  );
};

export default plugin;
