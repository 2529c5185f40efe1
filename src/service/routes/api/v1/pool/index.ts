import { Type, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { AttestationResponseSchema, errorResponses } from "../../../../schemas";
import { sendJson } from "../../../../sendJson";

/** `GET /api/v1/pool/{pool}`: the latest pre-signed attestation of a pool, served from the store, never re-signed. */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { poolsRepository } = fastify;
  fastify.get(
    "/:pool",
    {
      schema: {
        summary: "Get a pool's signed attestation",
        description:
          "The pool id is 0x<address> (unique across chains, else 409), <chainId>:0x<address> or eip155:<chainId>:0x<address>, any case.",
        tags: ["attestations"],
        params: Type.Object({
          // No maxLength: parsePoolId rejects every malformed id alike (INVALID_POOL_ID); the router caps it at 500.
          pool: Type.String({ description: "pool identifier", examples: ["eip155:1:0x…"] }),
        }),
        response: { 200: AttestationResponseSchema, ...errorResponses(400, 404, 409, 429, 500) },
      },
    },
    async function getAttestation(request, reply) {
      return sendJson(reply, await poolsRepository.attestationJson(request.params.pool));
    },
  );
};

export default plugin;
