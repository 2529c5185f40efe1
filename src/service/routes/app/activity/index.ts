import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getActivity } from "../../../../read/getActivity";
import { listPools } from "../../../../read/listPools";
import { splitList } from "../../../../read/splitList";
import { poolNames } from "../../../../web/components";
import { renderActivityPage } from "../../../../web/pages/activity";
import { pageRoutes } from "../../../pageRoutes";
import { ActivityPageQuerySchema } from "../../../schemas/appPages";

/**
 * `GET /app/activity?limit=N&cursor=C&kind=K`: the activity log, paged by the API's cursor and filtered by kind
 * (`getActivity`, as `GET /api/v1/activity`; each event's pool named from `listPools`; an unknown kind is the API's 400, as an HTML page).
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext } = fastify;
  const page = pageRoutes(fastify);
  page("/", { querystring: ActivityPageQuerySchema }, async function activityPage(request, chrome) {
    const { limit, cursor = null, kind = [] } = request.query;
    const kinds = [...new Set((Array.isArray(kind) ? kind : [kind]).flatMap(splitList).filter((k) => k !== ""))];
    const [activity, { pools }] = await Promise.all([
      getActivity(readContext, { limit, cursor, kinds }),
      listPools(readContext),
    ]);
    return renderActivityPage({ page: activity, cursor, limit, kinds, names: poolNames(pools) }, chrome);
  });
};

export default plugin;
