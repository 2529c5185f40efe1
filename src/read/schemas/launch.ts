import * as z from "zod/v4";
import { nullable, uint } from "./common";

/** `get_launch` (`GET /api/v1/launch`): carries no date or time at all. */
export const LaunchSchema = z.strictObject({
  market: z.strictObject({
    id: z.string(),
    title: z.string(),
    protocol: z.string(),
    kind: z.enum(["amm", "lending"]),
  }),
  gates: z
    .array(
      z.strictObject({
        id: z.string(),
        title: z.string(),
        status: z.enum(["clear", "not-clear", "unmeasured"]),
        measured: nullable(z.number(), "null when unmeasured (the reason is in detail)"),
        threshold: z.number().nullable(),
        unit: z.string(),
        comparison: z.enum(["atLeast", "atMost"]),
        after: z.array(z.string()).describe("gates this one is checked after"),
        detail: z.string(),
      }),
    )
    .describe("in dependency order"),
  holding: nullable(z.string(), "the first gate that is not clear; null when all are clear"),
  version: uint("the gates file's version"),
});
