import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { NoAttestationError } from "../../../../errors/pool";
import { parsePoolId } from "../../../../lib/parsePoolId";
import { getPoolAttestation } from "../../../../read/getPoolAttestation";
import { listPools } from "../../../../read/listPools";
import { renderNoAttestationPage, renderPoolPage } from "../../../../web/pages/pool";
import { renderPoolsPage } from "../../../../web/pages/pools";
import { PoolPageParamsSchema } from "../../../schemas/appPages";

/**
 * `GET /app/pools`: every tracked pool with its stale flag (`listPools`, the reader of `GET /api/v1/pools`).
 * `GET /app/pools/{pool}`: one pool's attestation (`getPoolAttestation`, the reader of `GET /api/v1/pool/{pool}`),
 * verified in the browser against the attester `GET /api/v1/attester` serves, with its evidence window drawn.
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { dapp, readContext, attesterInfo } = fastify;
  fastify.setErrorHandler(dapp.pageErrorHandler);

  fastify.get(
    "/",
    { schema: { hide: true }, preHandler: fastify.requirePageSession },
    async function poolsPage(request, reply) {
      return dapp.sendPage(reply, renderPoolsPage(await listPools(readContext), dapp.chrome(request)));
    },
  );

  fastify.get(
    "/:pool",
    { schema: { hide: true, params: PoolPageParamsSchema }, preHandler: fastify.requirePageSession },
    async function poolPage(request, reply) {
      const id = request.params.pool;
      parsePoolId({ id });
      try {
        const attestation = await getPoolAttestation(readContext, { id });
        const page = renderPoolPage(
          { attestation, attester: attesterInfo.attester, now: readContext.now() },
          dapp.chrome(request),
        );
        return dapp.sendPage(reply, page);
      } catch (error) {
        if (!(error instanceof NoAttestationError)) throw error;
        return dapp.sendPage(reply, renderNoAttestationPage(error.pool, error.reason, dapp.chrome(request)), 404);
      }
    },
  );
};

export default plugin;
