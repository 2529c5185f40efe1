import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { TOOL_NAMES, type ToolName } from "../read/surfaces";
import type { McpDeps } from "./deps";
import { PIN_ATTESTER, freshnessRule } from "./internal/descriptions";
import { registerResources } from "./resources";
import { registerComparePoolsTool } from "./tools/compare_pools";
import { registerGetActivityTool } from "./tools/get_activity";
import { registerGetAttestationTool } from "./tools/get_attestation";
import { registerGetAttesterTool } from "./tools/get_attester";
import { registerGetLaunchTool } from "./tools/get_launch";
import { registerGetLiquidityMapTool } from "./tools/get_liquidity_map";
import { registerGetRoadmapTool } from "./tools/get_roadmap";
import { registerGetVolumeTool } from "./tools/get_volume";
import { registerListPoolsTool } from "./tools/list_pools";
import { registerVerifyAttestationTool } from "./tools/verify_attestation";

/**
 * The register function of each tool of the read surface table (`src/read/surfaces.ts`): a tool of the table missing
 * here does not compile, and one registered under another name fails the `tools/list` tests.
 */
const REGISTER: Record<ToolName, (server: McpServer, deps: McpDeps) => unknown> = {
  list_pools: registerListPoolsTool,
  get_attestation: registerGetAttestationTool,
  verify_attestation: registerVerifyAttestationTool,
  get_attester: registerGetAttesterTool,
  get_volume: registerGetVolumeTool,
  get_launch: registerGetLaunchTool,
  get_activity: registerGetActivityTool,
  get_liquidity_map: registerGetLiquidityMapTool,
  get_roadmap: registerGetRoadmapTool,
  compare_pools: registerComparePoolsTool,
};

/** The tools, in the order `tools/list` gives them: the table's order. */
const TOOLS = TOOL_NAMES.map((name) => REGISTER[name]);

/** The server's name and version in `initialize` (the version of the API it mirrors). */
export const MCP_SERVER_INFO = {
  name: "attestation-service",
  title: "Signed pool liquidity attestations",
  version: "1.0.0",
};

/**
 * The MCP server: ten read-only tools over the same readers as the REST API (each tool's `structuredContent` is the
 * body of its route), and two read-only resources (the attester, the claim statement). Build one per connection: over
 * stdio one for the process; over Streamable HTTP one per POST (stateless), as the SDK requires.
 *
 * @param deps {@link McpDeps}: the read context, the attester, and a hook for unexpected errors.
 * @returns the server, not connected (`await server.connect(transport)`).
 * @example
 * import { createMcpServer } from "./mcp/createMcpServer";
 * import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
 * await createMcpServer({ readContext, attester }).connect(new StdioServerTransport());
 */
export function createMcpServer(deps: McpDeps): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, {
    instructions: [
      "Open evidence about DeFi pool liquidity, read-only: tracked pools, each pool's signed attestation of its",
      "liquidity horizon, swap volume, the liquidity map, a comparison of pools, the activity log, the launch gates and",
      "the roadmap. Start with list_pools; read attest://claim for what an attestation claims.",
      `${PIN_ATTESTER} ${freshnessRule(deps.readContext.freshnessWindowS)}`,
      "Errors come back as isError results whose text is the API's error body {error:{code,message}}.",
    ].join(" "),
  });
  for (const register of TOOLS) register(server, deps);
  registerResources(server, deps);
  return server;
}
