import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ALERT_KINDS } from "../../../../alerts/alertKinds";
import { listSubscriptions } from "../../../../alerts/listSubscriptions";
import { walletOwner } from "../../../../alerts/subscriptionOwner";
import { renderAlertsPage } from "../../../../web/pages/alerts";

/**
 * `GET /app/alerts`: the wallet's alert subscriptions (`listSubscriptions` with owner `wallet:<address>`, as
 * `GET /app/api/alert-subscriptions`) with their delivery state; subscribe, delete and resume in the page.
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { dapp, readContext } = fastify;
  fastify.setErrorHandler(dapp.pageErrorHandler);
  fastify.get(
    "/",
    { schema: { hide: true }, preHandler: fastify.requirePageSession },
    async function alertsPage(request, reply) {
      const owner = walletOwner(request.session!.address);
      const subscriptions = await listSubscriptions({ db: readContext.db, owner });
      return dapp.sendPage(reply, renderAlertsPage({ subscriptions, kinds: ALERT_KINDS }, dapp.chrome(request)));
    },
  );
};

export default plugin;
