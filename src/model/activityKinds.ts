import { attestationRegistryAbi } from "../abi/attestationRegistryAbi";

/** The name of an event of the AttestationRegistry ABI (`Registered`, `UnbondRequested`, …). */
export type RegistryEventName = Extract<(typeof attestationRegistryAbi)[number], { type: "event" }>["name"];

/** The service's own activity kinds: what ingestion, attestation and the write API report. */
export const SERVICE_ACTIVITY_KINDS = [
  "ingest.pass",
  "attestation.issued",
  "claim.graded",
  "pool.stale",
  "pool.fresh",
  "campaign.started",
  "campaign.ended",
  "liquidity_request.created",
] as const;

/**
 * Every kind of event the activity log holds (docs/market-api.md#activity): the service's own, and one
 * `registry.<EventName>` per event of the AttestationRegistry ABI. `appendActivity` takes only these, so an emitter
 * cannot invent a kind that subscriptions and readers do not know.
 */
export type ActivityKind = (typeof SERVICE_ACTIVITY_KINDS)[number] | `registry.${RegistryEventName}`;

/** Every {@link ActivityKind}, the service's first, then the registry's in ABI order. */
export const ACTIVITY_KINDS: readonly ActivityKind[] = [
  ...SERVICE_ACTIVITY_KINDS,
  ...attestationRegistryAbi
    .filter((item) => item.type === "event")
    .map((item) => `registry.${item.name}` as `registry.${RegistryEventName}`),
];

/**
 * The kind of a test event sent on request to one alert subscription (`POST …/alert-subscriptions/{id}/test`). It is
 * not an {@link ActivityKind}: it is never published in the activity log (the log's readers leave it out), no
 * subscription can name it, and only the subscription it was sent for receives it. Its row lives in the log's table
 * only so that the outbox delivers it like any other event.
 */
export const ALERT_TEST_KIND = "alert.test";
