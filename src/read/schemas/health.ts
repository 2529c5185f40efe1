import * as z from "zod/v4";
import type { GetHealthReturnType } from "../getHealth";
import { nullable, uint } from "./common";

/** `GET /api/v1/health` (REST only: no MCP tool reads it). */
export const HealthSchema = z.strictObject({
  status: z.literal("ok"),
  pools: z.int().describe("tracked pools"),
  attestations: z.int().describe("stored attestations"),
  lastIngest: nullable(
    z.strictObject({
      startedAt: uint("Unix seconds"),
      finishedAt: nullable(uint("Unix seconds"), "null until the pass finishes"),
      status: z.string(),
    }),
    "the latest ingestion pass; null before the first",
  ),
  sources: z
    .record(
      z.string(),
      z.strictObject({
        ok: z.boolean(),
        error: z.string().optional().describe("why the source failed or is partial, the provider's message kept"),
        rows: uint("rows used").optional(),
        dropped: uint("values left out one by one (negative volumes, low-confidence prices)").optional(),
        rejectedRows: uint("rows skipped as not the documented shape or out of bounds").optional(),
        conflicts: uint("keys answered twice with different values, every copy refused").optional(),
        reasons: z.array(z.string()).optional().describe("the first reasons for rejectedRows and conflicts"),
      }),
    )
    .describe("each source's report of the latest finished pass, by source name; {} before the first"),
}) satisfies z.ZodType<GetHealthReturnType>;
