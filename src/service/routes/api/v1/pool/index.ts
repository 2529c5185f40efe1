import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { parsePoolId } from "../../../../../lib/parsePoolId";
import { getPoolAttestation } from "../../../../../read/getPoolAttestation";
import { errorResponses } from "../../../../schemas/error";
import { AttestationResponseSchema, PoolParamsSchema } from "../../../../schemas/pool";
import { sendJson } from "../../../../sendJson";

/**
 * `GET /api/v1/pool/{pool}`: the latest pre-signed attestation of a pool, served from the store, never re-signed.
 * Its history (`/history`) and claims (`/claims`) are declared beside their readers (`src/service/declaredRoutes.ts`).
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext, responseCache } = fastify;
  fastify.get(
    "/:pool",
    {
      schema: {
        summary: "Get a pool's signed attestation",
        description:
          "The pool id is 0x<address> (unique across chains, else 409), <chainId>:0x<address> or eip155:<chainId>:0x<address>, any case.",
        tags: ["attestations"],
        params: PoolParamsSchema,
        response: { 200: AttestationResponseSchema, ...errorResponses(400, 404, 409, 429, 500) },
      },
    },
    async function getAttestation(request, reply) {
      const id = request.params.pool;
      // A malformed id is rejected before the cache: its message quotes the caller's own spelling, and the cache key
      // is case-folded, so a cached 400 would echo another caller's id.
      parsePoolId({ id });
      const json = await responseCache.json(`pool:${id.toLowerCase()}`, () => getPoolAttestation(readContext, { id }));
      return sendJson(reply, json);
    },
  );
};

export default plugin;
