import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { POOL_HISTORY_PARAMETERS, getPoolHistory } from "../../read/getPoolHistory";
import { PoolHistorySchema } from "../../read/schemas/poolHistory";
import type { McpDeps } from "../deps";
import { answer } from "../internal/answer";
import { READ_ONLY, UNITS, sameJsonAs } from "../internal/descriptions";
import { integerInput, poolInput, toInteger, toText } from "../internal/inputs";

/** `get_pool_history`: a pool's daily lows and its past claims, exactly as `GET /api/v1/pool/{pool}/history`. */
export function registerTool(server: McpServer, deps: McpDeps): RegisteredTool {
  return server.registerTool(
    "get_pool_history",
    {
      title: "A pool's history: daily lows and past claims",
      description: [
        "The evidence behind a pool's horizon over time: its lowest observed depth of each complete UTC day (oldest",
        "first, ending yesterday; null where nothing was observed, never zero; `source` feed-daily where the day came",
        "from DefiLlama's daily chart rather than an on-chain read; depthUsd: the depth the day's first attestation",
        "states, null when none, so each floor is checkable), and the claims of its issued attestations whose",
        "window reaches into those days or beyond, the current one included (issuedAt, horizon in days, confidence 0 to 1, floorUsd, settlesAt), to draw each",
        `floor over the lows it covers. A tracked pool without an attestation still has a history. ${UNITS}`,
        "Errors: INVALID_POOL_ID, POOL_NOT_FOUND, AMBIGUOUS_POOL, INVALID_PARAMETER.",
        "The same JSON as GET /api/v1/pool/{pool}/history.",
      ].join(" "),
      inputSchema: {
        pool: poolInput(),
        days: integerInput(POOL_HISTORY_PARAMETERS.days),
      },
      outputSchema: sameJsonAs(PoolHistorySchema, "GET /api/v1/pool/{pool}/history"),
      annotations: { title: "A pool's history", ...READ_ONLY },
    },
    async ({ pool, days }) =>
      answer("get_pool_history", deps, () =>
        getPoolHistory(deps.readContext, { pool: toText(pool), days: toInteger(days) }),
      ),
  );
}
