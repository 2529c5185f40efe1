import { attestationRegistryAbi } from "../abi/attestationRegistryAbi";

/**
 * The activity kinds a subscription may name (DESIGN §6): the service's own events and one `registry.<EventName>` per
 * event of the AttestationRegistry ABI. A kind outside this list is refused at subscribe time, so a typo cannot
 * leave a subscription that never receives anything.
 */
export const ALERT_KINDS: readonly string[] = [
  "ingest.pass",
  "attestation.issued",
  "pool.stale",
  "pool.fresh",
  "campaign.started",
  "campaign.ended",
  "liquidity_request.created",
  ...attestationRegistryAbi.filter((item) => item.type === "event").map((item) => `registry.${item.name}`),
];

const KNOWN = new Set(ALERT_KINDS);

/** Whether `kind` is an activity kind a subscription may name. */
export function isAlertKind(kind: unknown): kind is string {
  return typeof kind === "string" && KNOWN.has(kind);
}
