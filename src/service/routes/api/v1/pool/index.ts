import { Type, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { parsePoolId } from "../../../../../lib/parsePoolId";
import { getPoolAttestation } from "../../../../../read/getPoolAttestation";
import { getPoolClaims } from "../../../../../read/getPoolClaims";
import { POOL_HISTORY_PARAMETERS, getPoolHistory } from "../../../../../read/getPoolHistory";
import { PoolHistorySchema } from "../../../../../read/schemas/poolHistory";
import { fromZod } from "../../../../schemas/fromZod";
import { PoolClaimsQuerySchema, PoolClaimsResponseSchema } from "../../../../schemas/accuracy";
import { errorResponses } from "../../../../schemas/error";
import { AttestationResponseSchema } from "../../../../schemas/pool";
import { sendJson } from "../../../../sendJson";

/** The `{pool}` path parameter: every id shape; `parsePoolId` rejects every malformed id alike (INVALID_POOL_ID). */
const PoolParamsSchema = Type.Object({
  // No maxLength: the router caps it at 500.
  pool: Type.String({ description: "pool identifier", examples: ["eip155:1:0x…"] }),
});

/** `GET /api/v1/pool/{pool}/history` answer: its one declaration, `src/read/schemas/poolHistory.ts`, as JSON Schema. */
export const PoolHistoryResponseSchema = fromZod(PoolHistorySchema, { title: "PoolHistory" });

/**
 * `GET /api/v1/pool/{pool}`: the latest pre-signed attestation of a pool, served from the store, never re-signed;
 * `GET /api/v1/pool/{pool}/history?days=N`: its daily lows and the claims drawn over them;
 * `GET /api/v1/pool/{pool}/claims`: its graded claims, newest first.
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

  fastify.get(
    "/:pool/history",
    {
      schema: {
        summary: "Get a pool's history: daily lows and past claims",
        description:
          "Every complete UTC day of the last `days` (oldest first, ending yesterday) with the pool's lowest observed depth (null where nothing was observed), and the claims of its issued attestations whose window overlaps them. A tracked pool without an attestation still has a history.",
        tags: ["attestations"],
        params: PoolParamsSchema,
        querystring: Type.Object({ days: Type.Integer(POOL_HISTORY_PARAMETERS.days) }),
        response: {
          200: PoolHistoryResponseSchema,
          ...errorResponses(400, 404, 409, 429, 500),
        },
      },
    },
    async function getHistory(request, reply) {
      const pool = request.params.pool;
      const { days } = request.query;
      parsePoolId({ id: pool });
      const key = `pool-history:${pool.toLowerCase()}:${days}`;
      return sendJson(reply, await responseCache.json(key, () => getPoolHistory(readContext, { pool, days })));
    },
  );

  fastify.get(
    "/:pool/claims",
    {
      schema: {
        summary: "Get a pool's claims, graded once their window closed, with the signed attestations",
        description:
          "The pool's first attestation of each UTC day (the graded claim), newest first, 100 a page: its terms, its outcome (pending, held, failed or void) and the attestation exactly as signed. Follow `next` until null; a cursor this service did not hand out is 400 INVALID_CURSOR. `attest grade` recomputes every outcome from the history.",
        tags: ["attestations"],
        params: PoolParamsSchema,
        querystring: PoolClaimsQuerySchema,
        response: { 200: PoolClaimsResponseSchema, ...errorResponses(400, 404, 409, 429, 500) },
      },
    },
    async function getClaims(request, reply) {
      const id = request.params.pool;
      const { cursor = null } = request.query;
      parsePoolId({ id });
      const key = `pool-claims:${id.toLowerCase()}:${cursor ?? ""}`;
      return sendJson(reply, await responseCache.json(key, () => getPoolClaims(readContext, { id, cursor })));
    },
  );
};

export default plugin;
