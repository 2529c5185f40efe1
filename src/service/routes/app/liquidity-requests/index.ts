import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { listPools } from "../../../../read/listPools";
import { listWalletLiquidityRequests } from "../../../../read/listWalletLiquidityRequests";
import { renderLiquidityRequestsPage } from "../../../../web/pages/liquidityRequests";
import { LiquidityRequestsPageQuerySchema } from "../../../schemas/appPages";

/**
 * `GET /app/liquidity-requests`: the wallet's own requests (`listWalletLiquidityRequests`, as
 * `GET /app/api/liquidity-requests`) and the form that sends the keyed write (its pool picker from `listPools`).
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { dapp, readContext } = fastify;
  fastify.setErrorHandler(dapp.pageErrorHandler);
  fastify.get(
    "/",
    { schema: { hide: true, querystring: LiquidityRequestsPageQuerySchema }, preHandler: fastify.requirePageSession },
    async function liquidityRequestsPage(request, reply) {
      const own = await listWalletLiquidityRequests(readContext, { address: request.session!.address });
      const { pools } = await listPools(readContext);
      const created = request.query.created ?? null;
      return dapp.sendPage(reply, renderLiquidityRequestsPage({ own, pools, created }, dapp.chrome(request)));
    },
  );
};

export default plugin;
