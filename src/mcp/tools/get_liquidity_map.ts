import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { LIQUIDITY_MAP_PARAMETERS, getLiquidityMap } from "../../read/getLiquidityMap";
import { LiquidityMapSchema } from "../../read/schemas/liquidityMap";
import type { McpDeps } from "../deps";
import { answer } from "../internal/answer";
import { READ_ONLY, UNITS, freshnessRule, sameJsonAs, AS_OF } from "../internal/descriptions";
import { integerInput, toInteger } from "../internal/inputs";

/** `get_liquidity_map`: depth by chain, four dimensions per pool, the campaign expiry calendar. */
export function registerTool(server: McpServer, deps: McpDeps): RegisteredTool {
  return server.registerTool(
    "get_liquidity_map",
    {
      title: "Liquidity map",
      description: [
        "Per chain (`chains`): the total fresh depth in USD and its pools with four dimensions each: depthUsd, volume24hUsd (AMM),",
        "yieldPct (APY in percent) and exitabilityUsd (lending: supplied − borrowed), each with its own observation time",
        "and judged stale on its own (`staleFields`); null means not measured, never zero. A lending reserve also has",
        "`lending` (supplyAprPct, borrowAprPct, utilisation; null for AMMs). Also the campaign expiry",
        "calendar (`expiryCalendar`: each pool once, on the UTC date its last known incentive campaign ends) and every stale value",
        `beside the totals. No composite score. ${UNITS} ${freshnessRule(deps.readContext.freshnessWindowS)}`,
        "Bounded: each chain lists `limit` pools from `offset`, by id; `poolsTotal` says how many it tracks (page with",
        "offset); totals, the calendar and `stale` always cover every pool. Errors: INVALID_PARAMETER.",
        `${AS_OF} The same JSON as GET /api/v1/liquidity-map.`,
      ].join(" "),
      inputSchema: {
        chainId: integerInput(LIQUIDITY_MAP_PARAMETERS.chainId),
        limit: integerInput(LIQUIDITY_MAP_PARAMETERS.limit),
        offset: integerInput(LIQUIDITY_MAP_PARAMETERS.offset),
      },
      outputSchema: sameJsonAs(LiquidityMapSchema, "GET /api/v1/liquidity-map"),
      annotations: { title: "Liquidity map", ...READ_ONLY },
    },
    async ({ chainId, limit, offset }) =>
      answer("get_liquidity_map", deps, () =>
        getLiquidityMap(deps.readContext, {
          chainId: toInteger(chainId),
          limit: toInteger(limit),
          offset: toInteger(offset),
        }),
      ),
  );
}
