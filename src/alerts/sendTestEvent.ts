import type { Kysely } from "kysely";
import { AlertSubscriptionNotFoundError, AlertSubscriptionPausedError, AlertTestPendingError } from "../errors/alerts";
import { ALERT_TEST_KIND } from "../model/activityKinds";
import { webhookIdOf, enqueueAlertTestEvent } from "../storage/alertOutbox";
import { listAlertSubscriptions } from "../storage/alertSubscriptions";
import type { Database } from "../storage/schema";
import { normalizeAlertOwner } from "./subscriptionOwner";

export type SendTestEventParameters = {
  db: Kysely<Database>;
  /** `key:<API key id>` or `wallet:<address>`. */
  owner: string;
  /** The subscription's id. */
  id: string;
  /** Unix seconds; default the wall clock. */
  now?: () => number;
};

export type SendTestEventReturnType = {
  /** The subscription the test event is for. */
  id: string;
  /** The test event's id (its `webhook-id` is `msg_<eventId>_<id>`). */
  eventId: number;
  /** The `webhook-id` every attempt of this delivery carries. */
  webhookId: string;
  /** Always `alert.test`. */
  kind: typeof ALERT_TEST_KIND;
  /** Queued: the delivery worker sends it like any other event, after the subscription's older pending ones. */
  status: "pending";
};

/**
 * Queues a test event for one of the owner's subscriptions: one `alert.test` event that only this subscription
 * receives, through the outbox like any other event (Standard Webhooks signing, the same retries, a failure counted
 * and shown like any other). It is never published in the activity log and no subscription can name its kind. One
 * test at a time per subscription: while one is pending, another is refused.
 *
 * @param {@link SendTestEventParameters}
 * @returns {@link SendTestEventReturnType}
 * @throws {@link AlertSubscriptionNotFoundError} (no subscription with this id is the owner's),
 * {@link AlertSubscriptionPausedError} (resume it first), {@link AlertTestPendingError} (the previous test is not
 * delivered yet).
 * @example
 * import { sendTestEvent } from "./alerts/sendTestEvent";
 * const { webhookId } = await sendTestEvent({ db, owner: keyOwner(apiKey.id), id });
 */
export async function sendTestEvent({
  db,
  owner,
  id,
  now = () => Math.floor(Date.now() / 1000),
}: SendTestEventParameters): Promise<SendTestEventReturnType> {
  const subscription = (await listAlertSubscriptions(db, normalizeAlertOwner(owner))).find((s) => s.id === String(id));
  if (subscription === undefined) throw new AlertSubscriptionNotFoundError();
  if (subscription.state !== "active") throw new AlertSubscriptionPausedError();
  const at = now();
  const queued = await enqueueAlertTestEvent(db, {
    subscriptionId: subscription.id,
    at,
    summary: `Test event for the subscription to ${subscription.url}, sent on request.`,
    data: { subscriptionId: subscription.id, test: true },
  });
  if (queued === "pending") throw new AlertTestPendingError();
  return {
    id: subscription.id,
    eventId: queued.eventId,
    webhookId: webhookIdOf(queued.eventId, subscription.id),
    kind: ALERT_TEST_KIND,
    status: "pending",
  };
}
