import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getRoadmap } from "../../../../read/getRoadmap";
import { renderRoadmapPage } from "../../../../web/pages/roadmap";

/** `GET /app/roadmap`: the roadmap with its store counts (`getRoadmap`, as `GET /api/v1/roadmap`). */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { dapp, readContext } = fastify;
  fastify.setErrorHandler(dapp.pageErrorHandler);
  fastify.get(
    "/",
    { schema: { hide: true }, preHandler: fastify.requirePageSession },
    async function roadmapPage(request, reply) {
      return dapp.sendPage(reply, renderRoadmapPage(await getRoadmap(readContext), dapp.chrome(request)));
    },
  );
};

export default plugin;
