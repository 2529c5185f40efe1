import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ACTIVITY_KINDS } from "../../model/activityKinds";
import { ACTIVITY_PARAMETERS, getActivity } from "../../read/getActivity";
import { splitList } from "../../read/splitList";
import { ActivitySchema } from "../../read/schemas/activity";
import type { McpDeps } from "../deps";
import { answer } from "../internal/answer";
import { READ_ONLY, sameJsonAs } from "../internal/descriptions";
import { integerInput, listInput, stringInput, toInteger, toList, toText } from "../internal/inputs";

/** `get_activity`: a page of the activity log, newest first (`GET /api/v1/activity`). */
export function registerTool(server: McpServer, deps: McpDeps): RegisteredTool {
  return server.registerTool(
    "get_activity",
    {
      title: "Activity feed",
      description: [
        "The activity log, newest first: attestations issued, pools turning stale or fresh, registry events,",
        "campaigns starting or ending, ingestion passes. One page at a time: pass `next` back as `cursor`, unchanged,",
        "for older events (null at the oldest); pages neither skip nor repeat while new events arrive. `at` is Unix",
        "seconds; `poolId` is eip155:<chainId>:<address> or null. `kind` keeps only the events of the kinds named",
        "(ingest.pass is most of the log: name the others to leave it out). Errors: INVALID_CURSOR (a cursor this service",
        "did not hand out), INVALID_PARAMETER (a limit out of range, or a kind not in the list, named in the message).",
        "The same JSON as GET /api/v1/activity.",
      ].join(" "),
      inputSchema: {
        limit: integerInput(ACTIVITY_PARAMETERS.limit),
        cursor: stringInput("the `next` of the previous page, unchanged; omit for the newest page", {
          maxLength: 100,
        }).optional(),
        kind: listInput(`only these event kinds, each one of: ${ACTIVITY_KINDS.join(", ")}; omit for every kind`, {
          maxItems: ACTIVITY_KINDS.length,
        }).optional(),
      },
      outputSchema: sameJsonAs(ActivitySchema, "GET /api/v1/activity"),
      annotations: { title: "Activity feed", ...READ_ONLY },
    },
    async ({ limit, cursor, kind }) =>
      answer("get_activity", deps, () =>
        getActivity(deps.readContext, {
          limit: toInteger(limit),
          cursor: cursor === undefined || cursor === null ? null : toText(cursor),
          kinds: toList(kind, splitList),
        }),
      ),
  );
}
