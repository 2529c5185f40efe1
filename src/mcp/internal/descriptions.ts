import type * as z from "zod/v4";

/** Sentences every tool description that needs them shares, so a model reads the same rule the same way. */

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

/** Read-only, closed-world tools: they read this service's store and nothing else. */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false, idempotentHint: true, destructiveHint: false };

/** A tool's output schema: the shape its REST route answers (`src/read/schemas`), described as that route's JSON. */
export const sameJsonAs = <T extends z.ZodType>(schema: T, route: string): T =>
  schema.describe(`The same JSON as ${route} answers.`);
