import { Webhook } from "standardwebhooks";
import { toActivityItem, type ActivityItem } from "../storage/activity";
import { webhookIdOf, type DueAlertDelivery } from "../storage/alertOutbox";

/** A delivery's body: the activity event exactly as `GET /api/v1/activity` serves it, plus `type` (= its kind). */
export type WebhookBody = ActivityItem & { type: string };

export type BuildWebhookMessageParameters = {
  delivery: Pick<DueAlertDelivery, "subscription_id" | "event_id" | "secret" | "event">;
  /** The time of this attempt (the `webhook-timestamp`, Unix seconds). */
  timestamp: Date;
};
export type BuildWebhookMessageReturnType = {
  webhookId: string;
  /** The exact bytes sent and signed. */
  body: string;
  /** `content-type`, `webhook-id`, `webhook-timestamp`, `webhook-signature`. */
  headers: Record<string, string>;
};

/**
 * One delivery attempt's request, per Standard Webhooks: `webhook-id` is stable per (event, subscription), so every
 * retry carries the same one; `webhook-timestamp` is the attempt's time; `webhook-signature` is
 * `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` under the subscription's secret, computed by the
 * `standardwebhooks` package. The body is rebuilt from the stored event (append-only), so it is the same on every
 * attempt.
 *
 * @param {@link BuildWebhookMessageParameters}
 * @returns {@link BuildWebhookMessageReturnType}
 */
export function buildWebhookMessage({
  delivery,
  timestamp,
}: BuildWebhookMessageParameters): BuildWebhookMessageReturnType {
  const item = toActivityItem(delivery.event);
  const payload: WebhookBody = { ...item, type: item.kind };
  const body = JSON.stringify(payload);
  const webhookId = webhookIdOf(delivery.event_id, delivery.subscription_id);
  const signature = new Webhook(delivery.secret).sign(webhookId, timestamp, body);
  return {
    webhookId,
    body,
    headers: {
      "content-type": "application/json",
      "webhook-id": webhookId,
      "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
      "webhook-signature": signature,
    },
  };
}
