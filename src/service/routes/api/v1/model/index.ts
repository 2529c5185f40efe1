import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getModelEvaluation } from "../../../../../read/getModelEvaluation";
import { errorResponses } from "../../../../schemas/error";
import { ModelEvaluationResponseSchema } from "../../../../schemas/modelEvaluation";
import { sendJson } from "../../../../sendJson";

/** `GET /api/v1/model`: the walk-forward evaluation of the issuing horizon model (DESIGN §15). */
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
};

export default plugin;
