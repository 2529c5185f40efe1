import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { listWalletLiquidityRequests } from "../../../../../read/listWalletLiquidityRequests";
import { WalletLiquidityRequestsQuerySchema, WalletLiquidityRequestsResponseSchema } from "../../../../schemas/appApi";
import { errorResponses } from "../../../../schemas/error";

/**
 * `GET /app/api/liquidity-requests`: the signed-in wallet's own requests (written with keys it created), newest
 * first: the reader of the liquidity requests page. Needs the session (401 without).
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext } = fastify;
  fastify.get(
    "/",
    {
      schema: {
        hide: true,
        querystring: WalletLiquidityRequestsQuerySchema,
        response: { 200: WalletLiquidityRequestsResponseSchema, ...errorResponses(400, 401, 429) },
      },
      preHandler: fastify.requireSession,
    },
    async function ownRequests(request) {
      return listWalletLiquidityRequests(readContext, {
        address: request.session!.address,
        limit: request.query.limit,
      });
    },
  );
};

export default plugin;
