import { walletOwner } from "../../../../../alerts/subscriptionOwner";
import { listPools } from "../../../../../read/listPools";
import { poolNames } from "../../../../../web/components";
import { alertSubscriptionRoutes } from "../../../../alertSubscriptionRoutes";
import { createdSubscriptionRowHtml } from "../../../../createdRows";

const hidden = { hide: true };

/**
 * The signed-in wallet's alert subscriptions (owner `wallet:<lower-case address>`), for the alerts page: the same
 * routes as the keyed `/api/v1/alert-subscriptions` (`alertSubscriptionRoutes`), with the session instead of a key.
 * `GET` needs the session (401 without); `POST`, `DELETE`, `POST …/resume` and `POST …/test` also need an `Origin` equal to the
 * service's own (403: the CSRF rule). Another owner's id is 404, like an unknown one. The wallet's list holds the
 * subscriptions of every key it created too (a revoked key's paused: it may delete them, not resume them, 409).
 */
export default alertSubscriptionRoutes((fastify) => ({
  guard: {
    read: { preHandler: fastify.requireSession },
    change: { preHandler: [fastify.requireSession, fastify.requireSameOrigin] },
  },
  owner: (request) => walletOwner(request.session!.address),
  docs: {
    create: { schema: hidden, errors: [400, 401, 403, 404, 409, 415, 429, 503] },
    list: { schema: hidden, errors: [401, 429, 503] },
    delete: { schema: hidden, errors: [400, 401, 403, 404, 429, 503] },
    resume: { schema: hidden, errors: [400, 401, 403, 404, 409, 429, 503] },
    test: { schema: hidden, errors: [400, 401, 403, 404, 409, 429, 503] },
  },
  createdHeaders: { "cache-control": "no-store" },
  // The row names its pool as the page does (the `listPools` reader).
  createdRowHtml: async (created) =>
    createdSubscriptionRowHtml(created, poolNames((await listPools(fastify.readContext)).pools)),
}));
