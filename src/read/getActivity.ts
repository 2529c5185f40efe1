import { InvalidParameterError } from "../errors/market";
import { ACTIVITY_KINDS } from "../model/activityKinds";
import { listActivity, toActivityItem, type ActivityItem } from "../storage/activity";
import type { ReadContext } from "./context";
import { defineSurface } from "./defineSurface";
import { decodeActivityCursor, encodeActivityCursor } from "./internal/activityCursor";
import { checkParameter, type IntegerParameter } from "./internal/checkInteger";
import { ActivitySchema } from "./schemas/activity";

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

/** The surface, declared once: `GET /api/v1/activity` and the MCP tool `get_activity` are derived from it. */
export const surface = defineSurface({
  title: "Activity feed",
  label: "Activity feed",
  description: [
    "The activity log, newest first: attestations issued, pools turning stale or fresh, registry events,",
    "campaigns starting or ending, ingestion passes. One page at a time: pass `next` back as `cursor`, unchanged,",
    "for older events (null at the oldest); pages neither skip nor repeat while new events arrive. `at` is Unix",
    "seconds; `poolId` is eip155:<chainId>:<address> or null. `kind` keeps only the events of the kinds named",
    "(ingest.pass is most of the log: name the others to leave it out). Errors: INVALID_CURSOR (a cursor this service",
    "did not hand out), INVALID_PARAMETER (a limit out of range, or a kind not in the list, named in the message).",
  ].join(" "),
  parameters: {
    limit: { kind: "integer", integer: ACTIVITY_PARAMETERS.limit },
    cursor: { kind: "cursor" },
    kind: { kind: "names", noun: "event kinds", values: ACTIVITY_KINDS },
  },
  tags: ["market"],
  output: ActivitySchema,
  outputTitle: "Activity",
  errors: [400, 429, 500, 503],
  cacheKey: "activity",
  read: (context, { limit, cursor, kind }) => getActivity(context, { limit, cursor, kinds: kind }),
});
