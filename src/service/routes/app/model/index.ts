import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getModelEvaluation } from "../../../../read/getModelEvaluation";
import { listPools } from "../../../../read/listPools";
import { poolNames } from "../../../../web/components";
import { renderModelPage } from "../../../../web/pages/model";
import { pageRoutes } from "../../../pageRoutes";

/**
 * `GET /app/model`: the walk-forward evaluation of the horizon model (`getModelEvaluation`, as `GET /api/v1/model`); the
 * sample's pools are labelled from `listPools`.
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext } = fastify;
  const page = pageRoutes(fastify);
  page("/", {}, async function modelPage(_request, chrome) {
    const [evaluation, { pools }] = await Promise.all([getModelEvaluation(readContext), listPools(readContext)]);
    return renderModelPage(evaluation, chrome, poolNames(pools));
  });
};

export default plugin;
