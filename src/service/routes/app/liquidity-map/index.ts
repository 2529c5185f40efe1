import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getLiquidityMap } from "../../../../read/getLiquidityMap";
import { renderLiquidityMapPage } from "../../../../web/pages/liquidityMap";
import { LiquidityMapPageQuerySchema } from "../../../schemas/appPages";

/** `GET /app/liquidity-map`: the map and its expiry calendar (`getLiquidityMap`, as `GET /api/v1/liquidity-map`). */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { dapp, readContext } = fastify;
  fastify.setErrorHandler(dapp.pageErrorHandler);
  fastify.get(
    "/",
    { schema: { hide: true, querystring: LiquidityMapPageQuerySchema }, preHandler: fastify.requirePageSession },
    async function liquidityMapPage(request, reply) {
      const { offset } = request.query;
      const data = await getLiquidityMap(readContext, { offset });
      return dapp.sendPage(reply, renderLiquidityMapPage(data, dapp.chrome(request), offset));
    },
  );
};

export default plugin;
