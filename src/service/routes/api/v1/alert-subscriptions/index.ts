import { keyOwner } from "../../../../../alerts/subscriptionOwner";
import { alertSubscriptionRoutes } from "../../../../alertSubscriptionRoutes";

const keyed = { tags: ["alerts"], security: [{ bearerAuth: [] }] };

/**
 * The keyed alert routes (docs/alerts.md#subscribing), each behind `Authorization: Bearer <key>` (401 `UNAUTHORIZED`
 * first, after the rate limit: see plugins/app/auth.ts). The key is the owner (`key:<key id>`): it lists, deletes and
 * resumes only its own subscriptions, and another owner's id is 404 like an unknown one. Bodies and parameters are
 * checked without coercion. The routes are thin: the rules live in `src/alerts`, which the dapp calls with a wallet as
 * the owner (`routes/app/api/alert-subscriptions`, built by the same `alertSubscriptionRoutes`).
 */
export default alertSubscriptionRoutes((fastify) => ({
  guard: { read: { preParsing: fastify.requireApiKey }, change: { preParsing: fastify.requireApiKey } },
  owner: (request) => keyOwner(request.apiKey!.id),
  docs: {
    create: {
      schema: {
        summary: "Subscribe a webhook to activity events (keyed)",
        description:
          "Needs Authorization: Bearer <API key>. The target must be https on a public address (checked after DNS resolution, again before every attempt). Deliveries follow Standard Webhooks; the answer carries the signing secret, shown this once. An optional pool limits it to the events about that pool.",
        ...keyed,
      },
      errors: [400, 401, 404, 409, 413, 415, 429, 503],
    },
    list: {
      schema: {
        summary: "The key's own alert subscriptions and their delivery state (keyed)",
        description:
          "Pending, delivered and failed deliveries per subscription, the last error, and whether it is paused.",
        ...keyed,
      },
      errors: [401, 429, 503],
    },
    delete: {
      schema: {
        summary: "Delete one of the key's alert subscriptions (keyed)",
        description: "Its queued deliveries are dropped. Another owner's id is 404, like an unknown one.",
        ...keyed,
      },
      errors: [400, 401, 404, 429, 503],
    },
    resume: {
      schema: {
        summary: "Resume a paused alert subscription (keyed)",
        description:
          "Its pending deliveries go out again from the oldest event; the delivery that failed stays failed. Events written while it was paused were not queued for it.",
        ...keyed,
      },
      errors: [400, 401, 404, 429, 503],
    },
    test: {
      schema: {
        summary: "Send a test event to one of the key's alert subscriptions (keyed)",
        description:
          "Queues one event of kind alert.test for this subscription only (202): signed and delivered like any other event (Standard Webhooks, the same retries), after the subscription's older pending deliveries. It is never published in GET /api/v1/activity, and no subscription can name its kind. One test at a time: 409 ALERT_TEST_PENDING while the previous one is pending; 409 ALERT_SUBSCRIPTION_PAUSED on a paused subscription.",
        ...keyed,
      },
      errors: [400, 401, 404, 409, 429, 503],
    },
  },
}));
