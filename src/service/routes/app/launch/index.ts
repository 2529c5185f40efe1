import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getLaunchPosition } from "../../../../read/getLaunchPosition";
import { renderLaunchPage } from "../../../../web/pages/launch";

/** `GET /app/launch`: the lending market's launch gates (`getLaunchPosition`, as `GET /api/v1/launch`). */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { dapp, readContext } = fastify;
  fastify.setErrorHandler(dapp.pageErrorHandler);
  fastify.get(
    "/",
    { schema: { hide: true }, preHandler: fastify.requirePageSession },
    async function launchPage(request, reply) {
      return dapp.sendPage(reply, renderLaunchPage(await getLaunchPosition(readContext), dapp.chrome(request)));
    },
  );
};

export default plugin;
