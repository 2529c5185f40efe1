import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getLaunchPosition } from "../../../../read/getLaunchPosition";
import { renderLaunchPage } from "../../../../web/pages/launch";
import { pageRoutes } from "../../../pageRoutes";

/** `GET /app/launch`: the lending market's launch gates (`getLaunchPosition`, as `GET /api/v1/launch`). */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext } = fastify;
  const page = pageRoutes(fastify);
  page("/", {}, async function launchPage(_request, chrome) {
    return renderLaunchPage(await getLaunchPosition(readContext), chrome);
  });
};

export default plugin;
