import { InvalidParameterError } from "../errors/market";
import { ACTIVITY_KINDS } from "../model/activityKinds";
import { listActivity, toActivityItem, type ActivityItem } from "../storage/activity";
import type { ReadContext } from "./context";
import { decodeActivityCursor, encodeActivityCursor } from "./internal/activityCursor";
import { checkParameter, type IntegerParameter } from "./internal/checkInteger";

export type GetActivityParameters = {
  /** Events per page: 1–200, default 50. */
  limit?: number;
  /** The `next` of the previous page, unchanged; omit for the newest page. */
  cursor?: string | null;
  /** Only these kinds (each one of {@link ACTIVITY_KINDS}, e.g. `attestation.issued`); omit for every kind. */
  kinds?: readonly string[];
};

/** The integer parameter, declared once: the REST query and the MCP tool take it as written here. */
export const ACTIVITY_PARAMETERS = {
  limit: { description: "events per page", minimum: 1, maximum: 200, default: 50 },
} as const satisfies Record<"limit", IntegerParameter>;

/** One event of the activity log (shaped in storage, where the alert deliveries shape it too). */
export type { ActivityItem };

export type GetActivityReturnType = {
  /** Newest first. */
  events: ActivityItem[];
  /** The cursor of the next (older) page; null when this page reaches the oldest event. */
  next: string | null;
};

const KNOWN_KINDS = new Set<string>(ACTIVITY_KINDS);

/**
 * A page of the activity log, newest first. Paging is by event id (ids only grow), so a client that follows `next`
 * while new events arrive sees every older event exactly once: new events appear on a fresh first page, never inside
 * the pages below.
 *
 * @param context the {@link ReadContext} (only `db` is read).
 * @param {@link GetActivityParameters}
 * @returns {@link GetActivityReturnType}
 * @throws `InvalidCursorError` (a cursor this service did not hand out), `InvalidParameterError` (limit; a kind that
 * is not one of {@link ACTIVITY_KINDS}, named in the message).
 * @example
 * import { getActivity } from "./read/getActivity";
 * let page = await getActivity(context, { limit: 50 });
 * while (page.next) page = await getActivity(context, { limit: 50, cursor: page.next });
 */
export async function getActivity(
  { db }: Pick<ReadContext, "db">,
  { limit: limitParameter, cursor = null, kinds = [] }: GetActivityParameters = {},
): Promise<GetActivityReturnType> {
  const limit = checkParameter("limit", ACTIVITY_PARAMETERS.limit, limitParameter);
  const beforeId = cursor === null || cursor === undefined ? null : decodeActivityCursor(cursor);
  const unknown = kinds.find((kind) => !KNOWN_KINDS.has(kind));
  if (unknown !== undefined) {
    throw new InvalidParameterError({ field: "kind", value: unknown, expected: `one of ${ACTIVITY_KINDS.join(", ")}` });
  }
  const rows = await listActivity(db, { limit: limit + 1, beforeId, kinds: [...new Set(kinds)] });
  const page = rows.slice(0, limit);
  return {
    events: page.map(toActivityItem),
    next: rows.length > limit ? encodeActivityCursor(Number(page[page.length - 1].id)) : null,
  };
}
