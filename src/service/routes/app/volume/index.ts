import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getVolume } from "../../../../read/getVolume";
import { renderVolumePage } from "../../../../web/pages/volume";
import { VolumePageQuerySchema } from "../../../schemas/appPages";

/** `GET /app/volume?days=N`: the daily series and the venue-by-day heatmap (`getVolume`, as `GET /api/v1/volume`). */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { dapp, readContext } = fastify;
  fastify.setErrorHandler(dapp.pageErrorHandler);
  fastify.get(
    "/",
    { schema: { hide: true, querystring: VolumePageQuerySchema }, preHandler: fastify.requirePageSession },
    async function volumePage(request, reply) {
      const data = await getVolume(readContext, { days: request.query.days });
      return dapp.sendPage(reply, renderVolumePage(data, dapp.chrome(request)));
    },
  );
};

export default plugin;
