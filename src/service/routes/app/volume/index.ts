import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getVolume } from "../../../../read/getVolume";
import { listPools } from "../../../../read/listPools";
import { poolNames } from "../../../../web/components";
import { renderVolumePage } from "../../../../web/pages/volume";
import { pageRoutes } from "../../../pageRoutes";
import { VolumePageQuerySchema } from "../../../schemas/appPages";

/**
 * `GET /app/volume?days=N`: the daily series and the venue-by-day heatmap (`getVolume`, as `GET /api/v1/volume`); the
 * pools it names by id are labelled from `listPools` (`GET /api/v1/pools`).
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext } = fastify;
  const page = pageRoutes(fastify);
  page("/", { querystring: VolumePageQuerySchema }, async function volumePage(request, chrome) {
    const [volume, { pools }] = await Promise.all([
      getVolume(readContext, { days: request.query.days }),
      listPools(readContext),
    ]);
    return renderVolumePage(volume, chrome, poolNames(pools));
  });
};

export default plugin;
