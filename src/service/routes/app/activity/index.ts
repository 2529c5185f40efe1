import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getActivity } from "../../../../read/getActivity";
import { renderActivityPage } from "../../../../web/pages/activity";
import { pageRoutes } from "../../../pageRoutes";
import { ActivityPageQuerySchema } from "../../../schemas/appPages";

/** `GET /app/activity?limit=N&cursor=C`: the activity log, paged by the API's cursor (`getActivity`). */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext } = fastify;
  const page = pageRoutes(fastify);
  page("/", { querystring: ActivityPageQuerySchema }, async function activityPage(request, chrome) {
    const { limit, cursor = null } = request.query;
    const activity = await getActivity(readContext, { limit, cursor });
    return renderActivityPage({ page: activity, cursor, limit }, chrome);
  });
};

export default plugin;
