import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getAccuracy } from "../../../../../read/getAccuracy";
import { AccuracyResponseSchema } from "../../../../schemas/accuracy";
import { errorResponses } from "../../../../schemas/error";
import { sendJson } from "../../../../sendJson";

/** `GET /api/v1/accuracy`: the accuracy record, every signed claim graded once its window closed. */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext, responseCache } = fastify;
  fastify.get(
    "/",
    {
      schema: {
        summary: "The accuracy record: every signed claim graded once its window closed",
        description:
          "Counts of held, failed and void claims, the Brier score and calibration buckets over held and failed ones, and the latest graded claims. Each pool's claims and their signed attestations: GET /api/v1/pool/{pool}/claims.",
        tags: ["attestations"],
        response: { 200: AccuracyResponseSchema, ...errorResponses(429, 500, 503) },
      },
    },
    async function accuracy(_request, reply) {
      return sendJson(reply, await responseCache.json("accuracy", () => getAccuracy(readContext)));
    },
  );
};

export default plugin;
