import { InvalidParameterError } from "../errors/market";
import { formatPoolId } from "../lib/formatPoolId";
import { listActivity } from "../storage/activity";
import type { ReadContext } from "./context";
import { decodeActivityCursor, encodeActivityCursor } from "./internal/activityCursor";
import { checkInteger } from "./internal/checkInteger";

export type GetActivityParameters = {
  /** Events per page: 1–200, default 50. */
  limit?: number;
  /** The `next` of the previous page, unchanged; omit for the newest page. */
  cursor?: string | null;
  /** Only these kinds (exact names, e.g. `attestation.issued`); omit for every kind. At most 20. */
  kinds?: readonly string[];
};

/** One event of the activity log. */
export type ActivityItem = {
  /** Grows with every event: the log's order. */
  id: number;
  kind: string;
  /** Unix seconds. */
  at: number;
  /** The pool the event is about (`eip155:<chainId>:<address>`), or null. */
  poolId: string | null;
  summary: string;
  data: Record<string, unknown>;
};

export type GetActivityReturnType = {
  /** Newest first. */
  events: ActivityItem[];
  /** The cursor of the next (older) page; null when this page reaches the oldest event. */
  next: string | null;
};

const KIND = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * A page of the activity log, newest first. Paging is by event id (ids only grow), so a client that follows `next`
 * while new events arrive sees every older event exactly once: new events appear on a fresh first page, never inside
 * the pages below.
 *
 * @param context the {@link ReadContext} (only `db` is read).
 * @param {@link GetActivityParameters}
 * @returns {@link GetActivityReturnType}
 * @throws `InvalidCursorError` (a cursor this service did not hand out), `InvalidParameterError` (limit, kinds).
 * @example
 * import { getActivity } from "./read/getActivity";
 * let page = await getActivity(context, { limit: 50 });
 * while (page.next) page = await getActivity(context, { limit: 50, cursor: page.next });
 */
export async function getActivity(
  { db }: Pick<ReadContext, "db">,
  { limit = 50, cursor = null, kinds = [] }: GetActivityParameters = {},
): Promise<GetActivityReturnType> {
  checkInteger("limit", limit, 1, 200);
  const beforeId = cursor === null || cursor === undefined ? null : decodeActivityCursor(cursor);
  if (kinds.length > 20 || kinds.some((kind) => !KIND.test(kind))) {
    throw new InvalidParameterError({ field: "kind", value: kinds, expected: "up to 20 event kinds like pool.stale" });
  }
  const rows = await listActivity(db, { limit: limit + 1, beforeId, kinds });
  const page = rows.slice(0, limit);
  return {
    events: page.map((row) => ({
      id: Number(row.id),
      kind: row.kind,
      at: Number(row.at),
      poolId:
        row.chain_id === null || row.address === null
          ? null
          : formatPoolId({ chainId: Number(row.chain_id), address: row.address }),
      summary: row.summary,
      data: parseData(row.data_json),
    })),
    next: rows.length > limit ? encodeActivityCursor(Number(page[page.length - 1].id)) : null,
  };
}

/** The event's data object (a row whose text is not a JSON object keeps it under `text`). */
function parseData(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  return { text };
}
