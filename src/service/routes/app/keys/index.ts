import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { listWalletApiKeys } from "../../../../read/listWalletApiKeys";
import { renderApiKeysPage } from "../../../../web/pages/apiKeys";

/** `GET /app/keys`: the wallet's API keys (`listWalletApiKeys`, as `GET /app/api/keys`); create and revoke in the page. */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { dapp, readContext } = fastify;
  fastify.setErrorHandler(dapp.pageErrorHandler);
  fastify.get(
    "/",
    { schema: { hide: true }, preHandler: fastify.requirePageSession },
    async function keysPage(request, reply) {
      const keys = await listWalletApiKeys(readContext, { address: request.session!.address });
      return dapp.sendPage(reply, renderApiKeysPage(keys, dapp.chrome(request)));
    },
  );
};

export default plugin;
