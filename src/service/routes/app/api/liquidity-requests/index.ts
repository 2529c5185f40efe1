import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { walletWriterId } from "../../../../../storage/liquidityRequests";
import {
  LiquidityRequestBodySchema,
  LiquidityRequestHeadersSchema,
  LiquidityRequestSchema,
} from "../../../../schemas/liquidityRequests";
import { listWalletLiquidityRequests } from "../../../../../read/listWalletLiquidityRequests";
import { WalletLiquidityRequestsQuerySchema, WalletLiquidityRequestsResponseSchema } from "../../../../schemas/appApi";
import { errorResponses } from "../../../../schemas/error";
import { answerLiquidityRequest, liquidityRequestValidator } from "../../../../liquidityRequestPost";

/**
 * `GET /app/api/liquidity-requests`: the signed-in wallet's own requests (written with keys it created, or by itself
 * here), newest first: the reader of the liquidity requests page. Needs the session (401 without).
 *
 * `POST /app/api/liquidity-requests`: the page's form, signed in, without an API key: the same body, the same rules
 * (`parseLiquidityRequestInput`, no coercion) and the same write (`createLiquidityRequest`) and answer as the keyed
 * `POST /api/v1/liquidity-requests`, recorded with the writer id `wallet:<address>` (which also scopes an
 * `Idempotency-Key`). Needs the session and an `Origin` equal to the service's own (403: the CSRF rule).
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext, responseCache } = fastify;

  fastify.post(
    "/",
    {
      schema: {
        hide: true,
        headers: LiquidityRequestHeadersSchema,
        body: LiquidityRequestBodySchema,
        response: { 201: LiquidityRequestSchema, ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422, 429, 503) },
      },
      preHandler: [fastify.requireSession, fastify.requireSameOrigin],
      validatorCompiler: liquidityRequestValidator,
    },
    async function postWalletLiquidityRequest(request, reply) {
      return answerLiquidityRequest(
        { readContext, responseCache },
        request,
        reply,
        walletWriterId(request.session!.address),
      );
    },
  );

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
