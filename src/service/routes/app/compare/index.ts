import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { NoAttestationError } from "../../../../errors/poolLookup";
import { BaseError } from "@attestation-registry/sdk/errors";
import { comparePools, type ComparePoolsReturnType } from "../../../../read/comparePools";
import { getPoolAttestation } from "../../../../read/getPoolAttestation";
import { splitList } from "../../../../read/splitList";
import { listPools } from "../../../../read/listPools";
import { renderComparePage, type CompareClaim } from "../../../../web/pages/compare";
import { httpStatusOf } from "../../../errorBodies";
import { pageRoutes } from "../../../pageRoutes";
import { ComparePageQuerySchema } from "../../../schemas/appPages";

/**
 * `GET /app/compare?pools=a&pools=b`: the picker (`listPools`) and the comparison (`comparePools`, the reader of
 * `GET /api/v1/compare`), with each compared pool's latest claim (`getPoolAttestation`, the reader of
 * `GET /api/v1/pool/{pool}`: horizon, confidence, floor, or the reason it has none). A refusal of the reader (five pools, a repeated or unknown pool) is shown above the picker
 * with the API's status and message.
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext } = fastify;
  const page = pageRoutes(fastify);
  page("/", { querystring: ComparePageQuerySchema }, async function comparePage(request, chrome) {
    const asked = request.query.pools ?? [];
    const selected = (Array.isArray(asked) ? asked : [asked]).flatMap(splitList).filter((id) => id !== "");
    const { pools } = await listPools(readContext);
    let result: ComparePoolsReturnType | null = null;
    const claims = new Map<string, CompareClaim>();
    let error: string | null = null;
    let status = 200;
    if (selected.length > 0) {
      try {
        result = await comparePools(readContext, { pools: selected });
        for (const pool of result.pools) {
          try {
            claims.set(pool.id, await getPoolAttestation(readContext, { id: pool.id }));
          } catch (caught) {
            if (!(caught instanceof NoAttestationError)) throw caught;
            claims.set(pool.id, { noAttestationReason: caught.reason });
          }
        }
      } catch (caught) {
        if (!(caught instanceof BaseError) || httpStatusOf(caught) >= 500) throw caught;
        error = caught.shortMessage;
        status = httpStatusOf(caught);
      }
    }
    return { html: renderComparePage({ pools, selected, result, claims, error }, chrome), status };
  });
};

export default plugin;
