import * as z from "zod/v4";
import { nullable, uint } from "./common";

/** `get_activity` (`GET /api/v1/activity`). */
export const ActivitySchema = z.strictObject({
  events: z
    .array(
      z.strictObject({
        id: uint("grows with every event"),
        kind: z.string().describe("e.g. attestation.issued, pool.stale, pool.fresh, registry.Registered"),
        at: uint("Unix seconds"),
        poolId: nullable(z.string(), "eip155:<chainId>:<address>, or null"),
        summary: z.string(),
        data: z.record(z.string(), z.unknown()),
      }),
    )
    .describe("newest first"),
  next: nullable(z.string(), "cursor of the next (older) page: pass it as `cursor`, unchanged; null at the oldest"),
});
