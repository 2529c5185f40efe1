import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { listPools } from "../../../../read/listPools";
import { listWalletLiquidityRequests } from "../../../../read/listWalletLiquidityRequests";
import { renderLiquidityRequestsPage } from "../../../../web/pages/liquidityRequests";
import { pageRoutes } from "../../../pageRoutes";
import { LiquidityRequestsPageQuerySchema } from "../../../schemas/appPages";

/**
 * `GET /app/liquidity-requests`: the wallet's own requests (`listWalletLiquidityRequests`, as
 * `GET /app/api/liquidity-requests`) and the form that sends the keyed write (its pool picker from `listPools`).
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext } = fastify;
  const page = pageRoutes(fastify);
  page("/", { querystring: LiquidityRequestsPageQuerySchema }, async function liquidityRequestsPage(request, chrome) {
    const own = await listWalletLiquidityRequests(readContext, { address: request.session.address });
    const { pools } = await listPools(readContext);
    const created = request.query.created ?? null;
    return renderLiquidityRequestsPage({ own, pools, created }, chrome);
  });
};

export default plugin;
