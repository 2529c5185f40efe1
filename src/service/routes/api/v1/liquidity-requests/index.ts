import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { parseAttestationJson } from "@attestation-registry/sdk";
import { BaseError } from "@attestation-registry/sdk/errors";
import { ApiError, ApiErrorCode } from "../../../../../errors/http";
import { errorResponses } from "../../../../schemas/error";
import { answerLiquidityRequest, liquidityRequestValidator } from "../../../../liquidityRequestPost";
import {
  LiquidityRequestBodySchema,
  LiquidityRequestHeadersSchema,
  LiquidityRequestSchema,
} from "../../../../schemas/liquidityRequests";

/**
 * `POST /api/v1/liquidity-requests`: the keyed write. `Authorization: Bearer <key>` is checked first (401
 * `UNAUTHORIZED` with `WWW-Authenticate: Bearer`); only `application/json` is accepted, parsed strictly (a repeated
 * member name is a 400); the body is checked by the write's own rules without coercion (400 naming the field). The
 * write resolves the pool, and stores the request, its idempotency record and its activity event in one transaction;
 * the response cache is then dropped, since reads count requests. Under the API's rate limit and 64 KiB body limit.
 * CORS allows only GET and HEAD, so a browser page of another origin cannot send this (see docs/keys.md).
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext, responseCache } = fastify;

  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser("application/json", { parseAs: "string" }, (_request, text, done) => {
    try {
      done(null, parseAttestationJson({ text: text as string }));
    } catch (error) {
      const key = (error as { key?: unknown }).key;
      const field = (error as { field?: unknown }).field;
      // The strict parser also refuses a chainId written with a fraction or an exponent: a field of the body.
      const code = typeof field === "string" ? ApiErrorCode.invalidRequest : ApiErrorCode.invalidJson;
      const named = typeof field === "string" ? field : typeof key === "string" ? key : undefined;
      done(
        new ApiError({
          statusCode: 400,
          code,
          message: error instanceof BaseError ? error.shortMessage : "The body is not valid JSON.",
          extra: named === undefined ? {} : { field: named },
        }),
        undefined,
      );
    }
  });

  fastify.post(
    "/",
    {
      schema: {
        summary: "Ask for liquidity (keyed)",
        description:
          "Needs Authorization: Bearer <API key>. Names a tracked pool or an asset. An Idempotency-Key header makes a retry return the first answer instead of writing twice.",
        tags: ["liquidity"],
        security: [{ bearerAuth: [] }],
        headers: LiquidityRequestHeadersSchema,
        body: LiquidityRequestBodySchema,
        response: {
          201: LiquidityRequestSchema,
          ...errorResponses(400, 401, 404, 409, 413, 415, 422, 429, 503),
        },
      },
      // After the rate limit's onRequest hook, before the body is read (see plugins/app/auth.ts).
      preParsing: fastify.requireApiKey,
      // The body is checked by the write's own rules (one set of messages for every surface); no coercion anywhere.
      validatorCompiler: liquidityRequestValidator,
    },
    async function postLiquidityRequest(request, reply) {
      return answerLiquidityRequest({ readContext, responseCache }, request, reply, request.apiKey!.id);
    },
  );
};

export default plugin;
