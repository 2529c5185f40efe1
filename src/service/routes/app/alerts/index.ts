import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ALERT_KINDS } from "../../../../alerts/alertKinds";
import { listSubscriptions } from "../../../../alerts/listSubscriptions";
import { walletOwner } from "../../../../alerts/subscriptionOwner";
import { renderAlertsPage } from "../../../../web/pages/alerts";
import { pageRoutes } from "../../../pageRoutes";

/**
 * `GET /app/alerts`: the wallet's alert subscriptions (`listSubscriptions` with owner `wallet:<address>`, as
 * `GET /app/api/alert-subscriptions`) with their delivery state; subscribe, delete and resume in the page.
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext } = fastify;
  const page = pageRoutes(fastify);
  page("/", {}, async function alertsPage(request, chrome) {
    const owner = walletOwner(request.session.address);
    const subscriptions = await listSubscriptions({ db: readContext.db, owner });
    return renderAlertsPage({ subscriptions, kinds: ALERT_KINDS }, chrome);
  });
};

export default plugin;
