import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { listPools } from "../../read/listPools";
import { PoolsSchema } from "../../read/schemas/pools";
import type { McpDeps } from "../deps";
import { answer } from "../internal/answer";
import { READ_ONLY, UNITS, freshnessRule, sameJsonAs, AS_OF } from "../internal/descriptions";

/** `list_pools`: every tracked pool with its depth and stale flag (`GET /api/v1/pools`). */
export function registerTool(server: McpServer, deps: McpDeps): RegisteredTool {
  return server.registerTool(
    "list_pools",
    {
      title: "List tracked pools",
      description: [
        "Every pool the service tracks (id eip155:<chainId>:<address>, chain, address, symbol, venue, kind amm or",
        "lending) with its current depth in USD, when that depth was observed and whether it is stale, and the horizon",
        "(days), confidence (0 to 1) and expiry of its latest attestation (null when none); `total` sums the",
        "fresh depths and `heldOut` lists the stale ones beside it. Start here: pass a pool's `id` to get_attestation or",
        `compare_pools. ${UNITS} ${freshnessRule(deps.readContext.freshnessWindowS)}`,
        `${AS_OF} The same JSON as GET /api/v1/pools.`,
      ].join(" "),
      outputSchema: sameJsonAs(PoolsSchema, "GET /api/v1/pools"),
      annotations: { title: "List tracked pools", ...READ_ONLY },
    },
    async () => answer("list_pools", deps, () => listPools(deps.readContext)),
  );
}
