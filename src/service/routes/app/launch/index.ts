import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getLaunchPosition } from "../../../../read/getLaunchPosition";
import { listPools } from "../../../../read/listPools";
import { poolNames } from "../../../../web/components";
import { renderLaunchPage } from "../../../../web/pages/launch";
import { pageRoutes } from "../../../pageRoutes";

/**
 * `GET /app/launch`: the lending market's launch gates (`getLaunchPosition`, as `GET /api/v1/launch`); a pool a gate's
 * detail names by id is labelled from `listPools` (`GET /api/v1/pools`).
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext } = fastify;
  const page = pageRoutes(fastify);
  page("/", {}, async function launchPage(_request, chrome) {
    const [launch, { pools }] = await Promise.all([getLaunchPosition(readContext), listPools(readContext)]);
    return renderLaunchPage(launch, chrome, poolNames(pools));
  });
};

export default plugin;
