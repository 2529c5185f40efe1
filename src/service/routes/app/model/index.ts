import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getModelEvaluation } from "../../../../read/getModelEvaluation";
import { renderModelPage } from "../../../../web/pages/model";
import { pageRoutes } from "../../../pageRoutes";

/** `GET /app/model`: the walk-forward evaluation of the horizon model (`getModelEvaluation`, as `GET /api/v1/model`). */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext } = fastify;
  const page = pageRoutes(fastify);
  page("/", {}, async function modelPage(_request, chrome) {
    return renderModelPage(await getModelEvaluation(readContext), chrome);
  });
};

export default plugin;
