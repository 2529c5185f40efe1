import { attestationRegistryAbi } from "@attestation-registry/sdk";

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
    .map((item): ActivityKind => `registry.${item.name}`),
];

/**
 * The kind of a test event sent on request to one alert subscription (`POST …/alert-subscriptions/{id}/test`). It is
 * not an {@link ActivityKind}: it is never published in the activity log (the log's readers leave it out), no
 * subscription can name it, and only the subscription it was sent for receives it. Its row lives in the log's table
 * only so that the outbox delivers it like any other event.
 */
export const ALERT_TEST_KIND = "alert.test";

/**
 * Whether events of `kind` are ever about a pool: ingestion passes and the registry's events never are (their
 * `poolId` is null), so a subscription limited to one pool cannot receive them.
 */
export function kindConcernsPools(kind: ActivityKind): boolean {
  return kind !== "ingest.pass" && !kind.startsWith("registry.");
}

/**
 * Each {@link ActivityKind} in one plain line (the dapp's alerts and activity pages show it beside the kind's name;
 * docs/alerts.md lists the same). A `Record` over the kinds: a kind added without a description does not compile.
 */
export const ACTIVITY_KIND_DESCRIPTIONS: Readonly<Record<ActivityKind, string>> = {
  "ingest.pass": "An ingestion pass read the chains and stored what it found.",
  "attestation.issued": "A pool received a new signed attestation (a claim on its depth).",
  "claim.graded": "A claim's window closed and it was graded: it held or it failed.",
  "pool.stale": "A pool's depth was not observed within the freshness window: its figures are held out.",
  "pool.fresh": "A stale pool's depth was observed again: its figures count once more.",
  "campaign.started": "An incentive (rewards) campaign on a pool started.",
  "campaign.ended": "An incentive (rewards) campaign on a pool ended.",
  "liquidity_request.created": "Someone asked for an attestation on a pool (a liquidity request).",
  "registry.BondAdded": "Ether was added to an attester's bond in the on-chain registry.",
  "registry.Deregistered": "An attester was removed from the on-chain registry (its bond becomes withdrawable later).",
  "registry.EIP712DomainChanged": "The registry's signing domain changed (signatures made before may not verify).",
  "registry.OwnershipTransferStarted": "A transfer of the registry's ownership was proposed.",
  "registry.OwnershipTransferred": "The registry's owner changed.",
  "registry.Registered": "An attester key registered in the on-chain registry with a bond.",
  "registry.Revoked": "An attester revoked one of its own signed attestations.",
  "registry.Slashed": "The registry's owner took part or all of an attester's bond.",
  "registry.UnbondRequested": "An attester asked to withdraw its bond; it backs nothing from then on.",
  "registry.Withdrawn": "An attester's bond was paid out and its record cleared.",
};
