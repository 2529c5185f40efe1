import * as z from "zod/v4";
import { uint } from "./common";

/** `get_roadmap` (`GET /api/v1/roadmap`). */
export const RoadmapSchema = z.strictObject({
  version: uint("the data file's version"),
  items: z.array(
    z.strictObject({
      id: z.string(),
      title: z.string(),
      status: z.enum(["shipped", "building", "planned"]),
      counts: z
        .record(z.string(), uint("count").nullable())
        .describe("computed from the store at request time; null when the store cannot tell (not zero)"),
    }),
  ),
});
