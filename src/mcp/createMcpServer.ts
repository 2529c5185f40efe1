import { McpServer, type RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ServerCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { MAX_COMPARED_POOLS } from "../errors/market";
import {
  declaredSurface,
  describeSurface,
  openApiPath,
  type AnyDeclaredSurface,
  type SurfaceParameter,
} from "../read/defineSurface";
import { PIN_ATTESTER, freshnessRule } from "../read/sentences";
import { splitList } from "../read/splitList";
import { READ_SURFACES, TOOL_NAMES } from "../read/surfaces";
import type { McpDeps } from "./deps";
import { answer } from "./internal/answer";
import { READ_ONLY, sameJsonAs } from "./internal/descriptions";
import { integerInput, listInput, poolInput, stringInput, toInteger, toList, toText } from "./internal/inputs";
import { registerPrompts } from "./prompts";
import { registerResources } from "./resources";

/** A tool's module: `src/mcp/tools/<tool name>.ts`, which exports `registerTool`. */
type ToolModule = { registerTool: (server: McpServer, deps: McpDeps) => RegisteredTool };

/**
 * The tools of the read surface table (`src/read/surfaces.ts`), in its order (the order `tools/list` gives them). A
 * surface its reader declares (`src/read/defineSurface.ts`) gets its tool from that declaration
 * ({@link declaredTool}); the others are loaded from the file named after the tool, as the service's routes are loaded
 * from their folders. A table tool with neither fails here, at the first server built (and in
 * `test/service/surfaces.test.ts`).
 */
const TOOLS: readonly ToolModule["registerTool"][] = TOOL_NAMES.map((name) => {
  const entry = READ_SURFACES.find((surface) => surface.tool === name)!;
  const declared = declaredSurface(entry);
  if (declared !== null) return declaredTool(name, `${entry.route.method} ${openApiPath(entry.route.path)}`, declared);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the tool's file, named after it
  const tool = require(`./tools/${name}`) as Partial<ToolModule>;
  if (typeof tool.registerTool !== "function") throw new Error(`src/mcp/tools/${name} does not export registerTool`);
  return tool.registerTool;
});

/** A declared parameter's tool input (the same name, range and default as the route's). */
function toolInput(parameter: SurfaceParameter) {
  switch (parameter.kind) {
    case "pool":
      return poolInput();
    case "integer":
      return integerInput(parameter.integer);
    case "cursor":
      return stringInput("the `next` of the previous page, unchanged; omit for the first page", {
        maxLength: 100,
      }).optional();
    case "pools":
      return listInput("the pools, as list_pools gives their ids (eip155:<chainId>:0x<address>)", {
        minItems: 1,
        maxItems: MAX_COMPARED_POOLS,
      });
    case "names":
      return listInput(
        `only these ${parameter.noun}, each one of: ${parameter.values.join(", ")}; omit for every kind`,
        {
          maxItems: parameter.values.length,
        },
      ).optional();
  }
}

/** A declared parameter's value from what a model sent (`"7"` for 7; null or absent: the default or none). */
function toolValue(parameter: SurfaceParameter, value: unknown): string | number | string[] | null | undefined {
  switch (parameter.kind) {
    case "pool":
      return toText(value);
    case "integer":
      return toInteger(value);
    case "cursor":
      return value === undefined || value === null ? null : toText(value);
    case "pools":
    case "names":
      return toList(value, splitList);
  }
}

/** A declared surface's tool: its parameters as inputs, its title and description, its shape as output. */
function declaredTool(name: string, route: string, surface: AnyDeclaredSurface): ToolModule["registerTool"] {
  const parameters = Object.entries(surface.parameters as Record<string, SurfaceParameter>);
  return (server, deps) =>
    server.registerTool(
      name,
      {
        title: surface.title,
        description: `${describeSurface(surface, deps.readContext)} The same JSON as ${route}.`,
        inputSchema: Object.fromEntries(parameters.map(([key, parameter]) => [key, toolInput(parameter)])),
        outputSchema: sameJsonAs(surface.output, route),
        annotations: { title: surface.label, ...READ_ONLY },
      },
      async (args: Record<string, unknown>) =>
        answer(name, deps, () =>
          surface.read(
            deps.readContext,
            Object.fromEntries(parameters.map(([key, parameter]) => [key, toolValue(parameter, args[key])])),
          ),
        ),
    );
}

/** The server's name and version in `initialize` (the version of the API it mirrors). */
export const MCP_SERVER_INFO = {
  name: "attestation-service",
  title: "Signed pool liquidity attestations",
  version: "1.0.0",
};

/**
 * The MCP server: the read surface table's read-only tools over the same readers as the REST API (each tool's `structuredContent` is the
 * body of its route), two read-only resources (the attester, the claim statement), and two prompts for the common questions whose pool
 * arguments complete from the tracked pools. Build one per connection: over
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
  registerPrompts(server, deps);
  withdrawListChanged(server);
  return server;
}

/**
 * Withdraws the `listChanged` that `McpServer` adds to the `tools` and `resources` capabilities when the first tool or
 * resource is registered (the SDK has no option against it). The lists are fixed for the server's life, and over
 * stateless HTTP there is no stream a `notifications/…/list_changed` could ever reach, so advertising it would be a
 * promise the server cannot keep. Over stdio the same server is built, so both transports advertise the same.
 * Capabilities merge key by key, so an `undefined` value replaces the SDK's `true` and is left out of the JSON (a
 * transport serializes every message; an in-memory pair hands over `listChanged: undefined`).
 */
function withdrawListChanged(server: McpServer): void {
  // Only the capabilities this server has (registering another one here would advertise it).
  const withdrawn: ServerCapabilities = {
    tools: { listChanged: undefined },
    resources: { listChanged: undefined },
    prompts: { listChanged: undefined },
  };
  server.server.registerCapabilities(withdrawn);
}
