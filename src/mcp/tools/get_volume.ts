import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { VOLUME_PARAMETERS, getVolume } from "../../read/getVolume";
import { VolumeSchema } from "../../read/schemas/volume";
import type { McpDeps } from "../deps";
import { answer } from "../internal/answer";
import { READ_ONLY, UNITS, freshnessRule, sameJsonAs, AS_OF } from "../internal/descriptions";
import { integerInput, toInteger } from "../internal/inputs";

/** `get_volume`: swap volume by day, venue × day, chain, venue and turnover (`GET /api/v1/volume`). */
export function registerTool(server: McpServer, deps: McpDeps): RegisteredTool {
  return server.registerTool(
    "get_volume",
    {
      title: "Swap volume",
      description: [
        "On-chain swap volume in USD, read from the pools' own Swap logs: a daily series over `days` complete UTC days",
        "ending yesterday (`window` says which; today's partial day is in `today`, never summed), a venue × day heatmap,",
        "totals by chain and by venue (`byChain`, `byVenue`), and pools by turnover (24 h volume / depth, highest first). null means no data, never zero.",
        "DefiLlama's dex-volume feed is published beside them in `feed`, as separate figures. Pools whose volume is",
        `stale are held out of every total and listed in \`stale\` with what they would have added. ${UNITS}`,
        `${freshnessRule(deps.readContext.freshnessWindowS)} Bounded: byTurnover lists at most turnoverLimit pools`,
        `(byTurnoverTotal says of how many). ${AS_OF} Errors: INVALID_PARAMETER. The same JSON as GET /api/v1/volume.`,
      ].join(" "),
      inputSchema: {
        days: integerInput(VOLUME_PARAMETERS.days),
        turnoverLimit: integerInput(VOLUME_PARAMETERS.turnoverLimit),
      },
      outputSchema: sameJsonAs(VolumeSchema, "GET /api/v1/volume"),
      annotations: { title: "Swap volume", ...READ_ONLY },
    },
    async ({ days, turnoverLimit }) =>
      answer("get_volume", deps, () =>
        getVolume(deps.readContext, { days: toInteger(days), turnoverLimit: toInteger(turnoverLimit) }),
      ),
  );
}
