import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { listWalletApiKeys } from "../../../../read/listWalletApiKeys";
import { renderApiKeysPage } from "../../../../web/pages/apiKeys";
import { pageRoutes } from "../../../pageRoutes";

/** `GET /app/keys`: the wallet's API keys (`listWalletApiKeys`, as `GET /app/api/keys`); create and revoke in the page. */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext } = fastify;
  const page = pageRoutes(fastify);
  page("/", {}, async function keysPage(request, chrome) {
    return renderApiKeysPage(await listWalletApiKeys(readContext, { address: request.session.address }), chrome);
  });
};

export default plugin;
