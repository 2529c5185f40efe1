import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { MAX_COMPARED_POOLS } from "../../errors/market";
import { comparePools } from "../../read/comparePools";
import { splitList } from "../../read/splitList";
import { CompareSchema } from "../../read/schemas/compare";
import type { McpDeps } from "../deps";
import { answer } from "../internal/answer";
import { READ_ONLY, UNITS, freshnessRule, sameJsonAs, AS_OF } from "../internal/descriptions";
import { listInput, toList } from "../internal/inputs";

/** `compare_pools`: 1–4 pools side by side, and which holds the largest fresh value (`GET /api/v1/compare`). */
export function registerTool(server: McpServer, deps: McpDeps): RegisteredTool {
  return server.registerTool(
    "compare_pools",
    {
      title: "Compare pools",
      description: [
        `1 to ${MAX_COMPARED_POOLS} distinct pools side by side, in the order asked, with the four dimensions of the`,
        "liquidity map (depthUsd, volume24hUsd, yieldPct, exitabilityUsd, each with its observation time), and",
        "a lending reserve's `lending` (supplyAprPct, borrowAprPct, utilisation; null for AMMs), and `largest`: per dimension, the pool(s) holding the largest fresh value (ties list all; [] when none is fresh).",
        `Nothing is ranked or scored. ${UNITS} ${freshnessRule(deps.readContext.freshnessWindowS)}`,
        "Errors: NO_POOLS, TOO_MANY_POOLS, REPEATED_POOL, INVALID_POOL_ID, POOL_NOT_FOUND, AMBIGUOUS_POOL.",
        `${AS_OF} The same JSON as GET /api/v1/compare.`,
      ].join(" "),
      inputSchema: {
        pools: listInput("the pools, as list_pools gives their ids (eip155:<chainId>:0x<address>)", {
          minItems: 1,
          maxItems: MAX_COMPARED_POOLS,
        }),
      },
      outputSchema: sameJsonAs(CompareSchema, "GET /api/v1/compare"),
      annotations: { title: "Compare pools", ...READ_ONLY },
    },
    async ({ pools }) =>
      answer("compare_pools", deps, () => comparePools(deps.readContext, { pools: toList(pools, splitList) })),
  );
}
