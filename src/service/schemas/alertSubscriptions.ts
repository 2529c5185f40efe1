import { Type } from "@sinclair/typebox";
import { ALERT_KINDS } from "../../alerts/alertKinds";
import { MAX_TARGET_URL_LENGTH } from "../../alerts/checkAlertTarget";
import { MAX_KINDS_PER_SUBSCRIPTION } from "../../alerts/createSubscription";
import { ALERT_TEST_KIND } from "../../model/activityKinds";
import { uint } from "./common";
import { closed, nullable } from "./market";

const kind = Type.String({ maxLength: 64, description: `an activity kind: ${ALERT_KINDS.join(", ")}` });

/** `POST /api/v1/alert-subscriptions` body (checked without coercion; unknown members refused). */
export const AlertSubscriptionBodySchema = closed(
  {
    url: Type.String({
      minLength: 1,
      maxLength: MAX_TARGET_URL_LENGTH,
      description: "the target: https on a public address (see docs/alerts.md#target-rules)",
    }),
    kinds: Type.Array(kind, {
      minItems: 1,
      maxItems: MAX_KINDS_PER_SUBSCRIPTION,
      description: "the activity kinds to receive, distinct",
    }),
    pool: Type.Optional(
      nullable(
        Type.String({ maxLength: 100 }),
        "limit it to one tracked pool (any id shape): only events about that pool are sent; absent or null: every pool",
      ),
    ),
  },
  {
    examples: [
      { url: "https://hooks.example.com/attestations", kinds: ["pool.stale", "attestation.issued"] },
      {
        url: "https://hooks.example.com/one-pool",
        kinds: ["pool.stale", "claim.graded"],
        pool: "eip155:1:0xb4e16d0168e52d35cacd2c6185b44281ec28c9dc",
      },
    ],
  },
);

/** The `{id}` of one subscription. */
export const AlertSubscriptionParamsSchema = Type.Object({
  id: Type.String({ maxLength: 100, description: "the subscription's id" }),
});

/** `POST /api/v1/alert-subscriptions` answer (201): the only time the secret is shown. */
export const CreatedAlertSubscriptionSchema = closed(
  {
    id: Type.String(),
    url: Type.String({ description: "the target, normalized" }),
    kinds: Type.Array(Type.String()),
    pool: nullable(Type.String(), "the one pool it is limited to (eip155:<chainId>:<address>), or null: every pool"),
    secret: Type.String({
      description: "whsec_…: verifies every delivery's webhook-signature (Standard Webhooks); shown once, keep it",
    }),
    state: Type.Literal("active"),
    createdAt: uint("Unix seconds"),
  },
  { title: "CreatedAlertSubscription" },
);

/** A subscription with its delivery state (never its secret). */
export const AlertSubscriptionSchema = closed(
  {
    id: Type.String(),
    url: Type.String(),
    kinds: Type.Array(Type.String()),
    pool: nullable(Type.String(), "the one pool it is limited to (eip155:<chainId>:<address>), or null: every pool"),
    state: Type.Union([Type.Literal("active"), Type.Literal("paused")], {
      description: "paused after a delivery failed for good; POST …/{id}/resume to deliver again",
    }),
    createdAt: uint("Unix seconds"),
    pausedAt: nullable(uint("Unix seconds")),
    pausedReason: nullable(Type.String()),
    deliveries: closed(
      { pending: uint("to send or to retry"), delivered: uint("answered 2xx"), failed: uint("schedule ran out") },
      { description: "outbox rows by state" },
    ),
    lastError: nullable(Type.String(), "the last failed attempt's error"),
    lastErrorAt: nullable(uint("Unix seconds")),
    lastDeliveredAt: nullable(uint("Unix seconds")),
  },
  { title: "AlertSubscription" },
);

/** `GET /api/v1/alert-subscriptions`. */
export const AlertSubscriptionListSchema = closed(
  { subscriptions: Type.Array(AlertSubscriptionSchema, { description: "the key's own, oldest first" }) },
  { title: "AlertSubscriptions" },
);

/** `POST /api/v1/alert-subscriptions/{id}/test` answer (202): the test event queued for the subscription. */
export const AlertTestEventSchema = closed(
  {
    id: Type.String({ description: "the subscription's id" }),
    eventId: uint("the test event's id; it is never in GET /api/v1/activity"),
    webhookId: Type.String({ description: "the webhook-id of every attempt: msg_<eventId>_<id>" }),
    kind: Type.Literal(ALERT_TEST_KIND, { description: "always alert.test (also the body's type)" }),
    status: Type.Literal("pending", { description: "queued: the worker sends it like any other event" }),
  },
  { title: "AlertTestEvent" },
);
