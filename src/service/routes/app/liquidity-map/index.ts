import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getLiquidityMap } from "../../../../read/getLiquidityMap";
import { listPools } from "../../../../read/listPools";
import { poolNames } from "../../../../web/components";
import { renderLiquidityMapPage } from "../../../../web/pages/liquidityMap";
import { pageRoutes } from "../../../pageRoutes";
import { LiquidityMapPageQuerySchema } from "../../../schemas/appPages";

/**
 * `GET /app/liquidity-map`: the map and its expiry calendar (`getLiquidityMap`, as `GET /api/v1/liquidity-map`); the
 * pools it names by id (calendar, held-out values) are labelled from `listPools` (`GET /api/v1/pools`).
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext } = fastify;
  const page = pageRoutes(fastify);
  page("/", { querystring: LiquidityMapPageQuerySchema }, async function liquidityMapPage(request, chrome) {
    const { offset } = request.query;
    const [map, { pools }] = await Promise.all([getLiquidityMap(readContext, { offset }), listPools(readContext)]);
    return renderLiquidityMapPage(map, chrome, offset, poolNames(pools));
  });
};

export default plugin;
