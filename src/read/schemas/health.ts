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
}) satisfies z.ZodType<GetHealthReturnType>;
