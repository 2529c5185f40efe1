import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getModelClaims } from "../../../../../read/getModelClaims";
import { getModelEvaluation } from "../../../../../read/getModelEvaluation";
import { errorResponses } from "../../../../schemas/error";
import { ModelClaimsQuerySchema, ModelClaimsResponseSchema } from "../../../../schemas/modelClaims";
import { ModelEvaluationResponseSchema } from "../../../../schemas/modelEvaluation";
import { sendJson } from "../../../../sendJson";

/**
 * `GET /api/v1/model`: the walk-forward evaluation of the issuing horizon model; `GET /api/v1/model/claims`:
 * every scored claim of it, paged.
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext, responseCache } = fastify;
  fastify.get(
    "/",
    {
      schema: {
        summary: "Walk-forward evaluation of the horizon model: Brier score, calibration, a sample to recompute",
        tags: ["market"],
        response: { 200: ModelEvaluationResponseSchema, ...errorResponses(429, 500, 503) },
      },
    },
    async function model(_request, reply) {
      return sendJson(reply, await responseCache.json("model", () => getModelEvaluation(readContext)));
    },
  );
  fastify.get(
    "/claims",
    {
      schema: {
        summary:
          "Every scored claim of the issuing model's latest evaluation, paged: the Brier score recomputes from them",
        description:
          "By pool, then asOf, then horizon, 500 a page. Follow `next` until null. A cursor this service did not hand out, or one of an evaluation recomputed since, is 400 INVALID_CURSOR.",
        tags: ["market"],
        querystring: ModelClaimsQuerySchema,
        response: { 200: ModelClaimsResponseSchema, ...errorResponses(400, 429, 500, 503) },
      },
    },
    async function modelClaims(request, reply) {
      const { cursor = null } = request.query;
      const key = `model-claims:${cursor ?? ""}`;
      return sendJson(reply, await responseCache.json(key, () => getModelClaims(readContext, { cursor })));
    },
  );
};

export default plugin;
