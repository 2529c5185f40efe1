import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getVolume } from "../../../../read/getVolume";
import { renderVolumePage } from "../../../../web/pages/volume";
import { pageRoutes } from "../../../pageRoutes";
import { VolumePageQuerySchema } from "../../../schemas/appPages";

/** `GET /app/volume?days=N`: the daily series and the venue-by-day heatmap (`getVolume`, as `GET /api/v1/volume`). */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext } = fastify;
  const page = pageRoutes(fastify);
  page("/", { querystring: VolumePageQuerySchema }, async function volumePage(request, chrome) {
    return renderVolumePage(await getVolume(readContext, { days: request.query.days }), chrome);
  });
};

export default plugin;
