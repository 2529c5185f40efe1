import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { getRoadmap } from "../../read/getRoadmap";
import { RoadmapSchema } from "../../read/schemas/roadmap";
import type { McpDeps } from "../deps";
import { answer } from "../internal/answer";
import { READ_ONLY, sameJsonAs } from "../internal/descriptions";

/** `get_roadmap`: the roadmap with counts computed from the store (`GET /api/v1/roadmap`). */
export function registerTool(server: McpServer, deps: McpDeps): RegisteredTool {
  return server.registerTool(
    "get_roadmap",
    {
      title: "Roadmap",
      description: [
        "The roadmap's items with their status (shipped, building or planned) and counts computed from the store at",
        "request time (for example pools tracked, attestations issued); a count is null when the store cannot tell,",
        "never a made-up zero. `version` is the roadmap file's version. The same JSON as GET /api/v1/roadmap.",
      ].join(" "),
      outputSchema: sameJsonAs(RoadmapSchema, "GET /api/v1/roadmap"),
      annotations: { title: "Roadmap", ...READ_ONLY },
    },
    async () => answer("get_roadmap", deps, () => getRoadmap(deps.readContext)),
  );
}
