import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { getLaunchPosition } from "../../read/getLaunchPosition";
import { LaunchSchema } from "../../read/schemas/launch";
import type { McpDeps } from "../deps";
import { answer } from "../internal/answer";
import { READ_ONLY, sameJsonAs } from "../internal/descriptions";

/** `get_launch`: the lending market's launch gates and the one holding (`GET /api/v1/launch`). */
export function registerTool(server: McpServer, deps: McpDeps): RegisteredTool {
  return server.registerTool(
    "get_launch",
    {
      title: "Launch position of the lending market",
      description: [
        "The launch gates of the lending market, in dependency order, each measured from the store now: status clear,",
        "not-clear or unmeasured (the reason is in `detail`; unmeasured is never clear), the measured value against its",
        "threshold (atLeast or atMost, in `unit`), and `holding`: the first gate that is not clear (null when all are).",
        "It says what holds the launch, never when: the payload carries no date. `version` is the gates file's version.",
        "The same JSON as GET /api/v1/launch.",
      ].join(" "),
      outputSchema: sameJsonAs(LaunchSchema, "GET /api/v1/launch"),
      annotations: { title: "Launch position", ...READ_ONLY },
    },
    async () => answer("get_launch", deps, () => getLaunchPosition(deps.readContext)),
  );
}
