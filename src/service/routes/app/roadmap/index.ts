import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getRoadmap } from "../../../../read/getRoadmap";
import { renderRoadmapPage } from "../../../../web/pages/roadmap";
import { pageRoutes } from "../../../pageRoutes";

/** `GET /app/roadmap`: the roadmap with its store counts (`getRoadmap`, as `GET /api/v1/roadmap`). */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext } = fastify;
  const page = pageRoutes(fastify);
  page("/", {}, async function roadmapPage(_request, chrome) {
    return renderRoadmapPage(await getRoadmap(readContext), chrome);
  });
};

export default plugin;
