import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ALERT_KINDS } from "../../../../alerts/alertKinds";
import { deleteSubscription } from "../../../../alerts/deleteSubscription";
import { listSubscriptions } from "../../../../alerts/listSubscriptions";
import { walletOwner } from "../../../../alerts/subscriptionOwner";
import { listPools } from "../../../../read/listPools";
import { AlertSubscriptionNotFoundError } from "../../../../errors/alerts";
import { renderAlertsPage, deleteSubscriptionPath, deleteSubscriptionQuestion } from "../../../../web/pages/alerts";
import { renderConfirmPage } from "../../../../web/pages/confirm";
import { renderErrorPage } from "../../../../web/pages/error";
import { confirmedChange } from "../../../confirmedChange";
import { pageRoutes } from "../../../pageRoutes";
import { AlertSubscriptionParamsSchema } from "../../../schemas/alertSubscriptions";
import { AlertsPageQuerySchema } from "../../../schemas/appPages";

/** The error page of an id the wallet does not own (as the API's 404). */
function notFound() {
  const error = new AlertSubscriptionNotFoundError();
  return { status: 404, code: error.code, message: error.shortMessage };
}

/**
 * `GET /app/alerts`: the wallet's alert subscriptions (`listSubscriptions` with owner `wallet:<address>`, as
 * `GET /app/api/alert-subscriptions`) with their delivery state; subscribe, send a test event, delete and resume in
 * the page. Deleting asks first: in the page's dialog with the client bundle, or without it on
 * `GET /app/alerts/{id}/delete`, whose button POSTs to the same path (session and same `Origin`) and goes back to the
 * alerts with a notice (303).
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext } = fastify;
  const page = pageRoutes(fastify);
  page("/", { querystring: AlertsPageQuerySchema }, async function alertsPage(request, chrome) {
    const owner = walletOwner(request.session.address);
    const [subscriptions, { pools }] = await Promise.all([
      listSubscriptions({ db: readContext.db, owner }),
      listPools(readContext),
    ]);
    return renderAlertsPage(
      { subscriptions, kinds: ALERT_KINDS, pools, deleted: request.query.deleted ?? null },
      chrome,
    );
  });

  page("/:id/delete", { params: AlertSubscriptionParamsSchema }, async function deleteAlertPage(request, chrome) {
    const owner = walletOwner(request.session.address);
    const subscriptions = await listSubscriptions({ db: readContext.db, owner });
    const subscription = subscriptions.find((s) => s.id === request.params.id);
    if (subscription === undefined) return { html: renderErrorPage(notFound(), chrome), status: 404 };
    const confirm = {
      page: "alerts" as const,
      question: deleteSubscriptionQuestion(subscription),
      action: deleteSubscriptionPath(subscription.id),
      back: "/app/alerts",
    };
    return { html: renderConfirmPage(confirm, chrome), status: 200, referrerPolicy: "same-origin" };
  });

  confirmedChange(fastify, "/:id/delete", AlertSubscriptionParamsSchema, async function deleteAlertConfirmed(request) {
    const { id } = request.params;
    try {
      await deleteSubscription({ db: readContext.db, owner: walletOwner(request.session.address), id });
    } catch (error) {
      if (error instanceof AlertSubscriptionNotFoundError) return { error: notFound() };
      throw error;
    }
    return { location: `/app/alerts?deleted=${encodeURIComponent(id)}` };
  });
};

export default plugin;
