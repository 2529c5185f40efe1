import { ACTIVITY_KINDS, type ActivityKind } from "../model/activityKinds";

/**
 * The activity kinds a subscription may name (docs/alerts.md#the-model): the service's own events and one
 * `registry.<EventName>` per event of the AttestationRegistry ABI. A kind outside this list is refused at subscribe
 * time, so a typo cannot leave a subscription that never receives anything.
 */
export const ALERT_KINDS: readonly ActivityKind[] = ACTIVITY_KINDS;

const KNOWN = new Set<string>(ALERT_KINDS);

/** Whether `kind` is an activity kind a subscription may name. */
export function isAlertKind(kind: unknown): kind is ActivityKind {
  return typeof kind === "string" && KNOWN.has(kind);
}
