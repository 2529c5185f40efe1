import type { Kysely } from "kysely";
import type { Database } from "../storage/schema";

/**
 * What every reader needs: the store's query layer, the freshness rule and the clock. REST routes, MCP tools and
 * pages build one and call the same readers with it.
 */
export type ReadContext = {
  db: Kysely<Database>;
  /** `FRESHNESS_WINDOW_S`: a value observed longer ago than this is stale. */
  freshnessWindowS: number;
  /** Unix seconds. */
  now: () => number;
};

/** A stored number column as a JS number, null kept (PostgreSQL may hand back numeric text). */
export function toNumberOrNull(value: number | string | null | undefined): number | null {
  return value === null || value === undefined ? null : Number(value);
}
