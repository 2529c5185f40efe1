import type * as z from "zod/v4";

/** What every tool shares in `tools/list` (the sentences the descriptions share are `src/read/sentences.ts`). */

/** Read-only, closed-world tools: they read this service's store and nothing else. */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false, idempotentHint: true, destructiveHint: false };

/** A tool's output schema: the shape its REST route answers (`src/read/schemas`), described as that route's JSON. */
export const sameJsonAs = <T extends z.ZodType>(schema: T, route: string): T =>
  schema.describe(`The same JSON as ${route} answers.`);
