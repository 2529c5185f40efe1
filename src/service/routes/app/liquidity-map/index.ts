import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getLiquidityMap } from "../../../../read/getLiquidityMap";
import { renderLiquidityMapPage } from "../../../../web/pages/liquidityMap";
import { pageRoutes } from "../../../pageRoutes";
import { LiquidityMapPageQuerySchema } from "../../../schemas/appPages";

/** `GET /app/liquidity-map`: the map and its expiry calendar (`getLiquidityMap`, as `GET /api/v1/liquidity-map`). */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext } = fastify;
  const page = pageRoutes(fastify);
  page("/", { querystring: LiquidityMapPageQuerySchema }, async function liquidityMapPage(request, chrome) {
    const { offset } = request.query;
    return renderLiquidityMapPage(await getLiquidityMap(readContext, { offset }), chrome, offset);
  });
};

export default plugin;
