import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getLiquidityMap } from "../../../../../read/getLiquidityMap";
import { errorResponses } from "../../../../schemas/error";
import { LiquidityMapQuerySchema, LiquidityMapResponseSchema } from "../../../../schemas/liquidityMap";
import { sendJson } from "../../../../sendJson";

/** `GET /api/v1/liquidity-map`: chains, pools with their four dimensions, the expiry calendar, stale values. */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext, responseCache } = fastify;
  fastify.get(
    "/",
    {
      schema: {
        summary: "Liquidity map: depth by chain, the four dimensions per pool, the campaign expiry calendar",
        description:
          "No composite score. Each dimension is judged stale by its own observation time; totals sum fresh values only. Each chain lists `limit` pools from `offset` (by id) and says how many it tracks in `poolsTotal`; totals, the calendar and `stale` always cover every pool.",
        tags: ["market"],
        querystring: LiquidityMapQuerySchema,
        response: { 200: LiquidityMapResponseSchema, ...errorResponses(400, 429, 500, 503) },
      },
    },
    async function liquidityMap(request, reply) {
      const { chainId, limit, offset } = request.query;
      const key = `liquidity-map:${chainId ?? "*"}:${limit}:${offset}`;
      return sendJson(
        reply,
        await responseCache.json(key, () => getLiquidityMap(readContext, { chainId, limit, offset })),
      );
    },
  );
};

export default plugin;
