import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { NoAttestationError } from "../../../../errors/pool";
import { parsePoolId } from "../../../../lib/parsePoolId";
import { getPoolAttestation } from "../../../../read/getPoolAttestation";
import { listPools } from "../../../../read/listPools";
import { renderNoAttestationPage, renderPoolPage } from "../../../../web/pages/pool";
import { renderPoolsPage } from "../../../../web/pages/pools";
import { pageRoutes } from "../../../pageRoutes";
import { PoolPageParamsSchema } from "../../../schemas/appPages";

/**
 * `GET /app/pools`: every tracked pool with its stale flag (`listPools`, the reader of `GET /api/v1/pools`).
 * `GET /app/pools/{pool}`: one pool's attestation (`getPoolAttestation`, the reader of `GET /api/v1/pool/{pool}`),
 * verified in the browser against the attester `GET /api/v1/attester` serves, with its evidence window drawn.
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext, attesterInfo } = fastify;
  const page = pageRoutes(fastify);

  page("/", {}, async function poolsPage(_request, chrome) {
    return renderPoolsPage(await listPools(readContext), chrome);
  });

  page("/:pool", { params: PoolPageParamsSchema }, async function poolPage(request, chrome) {
    const id = request.params.pool;
    parsePoolId({ id });
    try {
      const attestation = await getPoolAttestation(readContext, { id });
      return renderPoolPage({ attestation, attester: attesterInfo.attester, now: readContext.now() }, chrome);
    } catch (error) {
      if (!(error instanceof NoAttestationError)) throw error;
      return { html: renderNoAttestationPage(error.pool, error.reason, chrome), status: 404 };
    }
  });
};

export default plugin;
