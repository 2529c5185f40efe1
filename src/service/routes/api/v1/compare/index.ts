import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { comparePools } from "../../../../../read/comparePools";
import { checkPoolList } from "../../../../../read/internal/checkPoolList";
import { splitList } from "../../../../../read/splitList";
import { CompareQuerySchema, CompareResponseSchema } from "../../../../schemas/compare";
import { errorResponses } from "../../../../schemas/error";
import { sendJson } from "../../../../sendJson";

/** `GET /api/v1/compare?pools=a,b,…`: 1–4 distinct pools side by side, and which holds the largest fresh value. */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext, responseCache } = fastify;
  fastify.get(
    "/",
    {
      schema: {
        summary: "Compare 1 to 4 pools (no rank)",
        description:
          "Pools come back in the order asked. `largest` names, per field, the pool(s) with the largest fresh value. 5 or more pools: 400 TOO_MANY_POOLS; a repeated pool: 400 REPEATED_POOL.",
        tags: ["market"],
        querystring: CompareQuerySchema,
        response: { 200: CompareResponseSchema, ...errorResponses(400, 404, 409, 429, 500, 503) },
      },
    },
    async function compare(request, reply) {
      const ids = splitList(request.query.pools);
      // Checked before the cache: the errors quote the caller's own spelling, and the key is case-folded.
      checkPoolList(ids);
      const key = `compare:${ids.map((id) => id.toLowerCase()).join(",")}`;
      return sendJson(reply, await responseCache.json(key, () => comparePools(readContext, { pools: ids })));
    },
  );
};

export default plugin;
