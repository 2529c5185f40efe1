import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getAccuracy } from "../../../../read/getAccuracy";
import { getModelEvaluation } from "../../../../read/getModelEvaluation";
import { listPools } from "../../../../read/listPools";
import { poolNames } from "../../../../web/components";
import { renderModelPage } from "../../../../web/pages/model";
import { pageRoutes } from "../../../pageRoutes";

/**
 * `GET /app/model`: the walk-forward evaluation of the horizon model (`getModelEvaluation`, as `GET /api/v1/model`)
 * beside the live record of the signed claims (`getAccuracy`, as `GET /api/v1/accuracy`); the sample's pools are
 * labelled from `listPools`.
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext } = fastify;
  const page = pageRoutes(fastify);
  page("/", {}, async function modelPage(_request, chrome) {
    const [evaluation, accuracy, { pools }] = await Promise.all([
      getModelEvaluation(readContext),
      getAccuracy(readContext),
      listPools(readContext),
    ]);
    return renderModelPage(evaluation, accuracy, chrome, poolNames(pools));
  });
};

export default plugin;
