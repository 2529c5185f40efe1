/**
 * Sentences the surfaces' descriptions share (the MCP tools', their routes' OpenAPI entries, the MCP server's
 * instructions and resources), so a model and a reader of the API docs read the same rule the same way.
 */

/** The freshness rule, with the window this server runs on. */
export const freshnessRule = (windowS: number) =>
  `Freshness: a value observed more than ${windowS} s ago (the service's FRESHNESS_WINDOW_S) is stale; it is still ` +
  "published, with its observation time and a stale flag (or an entry in `stale`), but never summed into a total.";

/** How to trust an attestation. */
export const PIN_ATTESTER =
  "Trust an attestation only after verifying its signature against an attester address you pinned (get_attester once, " +
  "or the operator's published address), never against the attestation's own `attester` field; also check `expiry`.";

/** Units used across the payloads. */
export const UNITS = "Amounts are USD; times are Unix seconds; days are UTC days (YYYY-MM-DD).";

/** The two fields every answer judged by the freshness rule carries. */
export const AS_OF = "`asOf` is the time the answer was built; `freshnessWindowS` the window it was judged with.";
