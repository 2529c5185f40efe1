import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { getPoolClaims } from "../../read/getPoolClaims";
import { PoolClaimsSchema } from "../../read/schemas/accuracy";
import type { McpDeps } from "../deps";
import { answer } from "../internal/answer";
import { READ_ONLY, sameJsonAs } from "../internal/descriptions";
import { poolInput, stringInput, toText } from "../internal/inputs";

/** `get_pool_claims`: a pool's claims and their grades, exactly as `GET /api/v1/pool/{pool}/claims`. */
export function registerTool(server: McpServer, deps: McpDeps): RegisteredTool {
  return server.registerTool(
    "get_pool_claims",
    {
      title: "A pool's claims and their grades",
      description: [
        "A pool's track record: its first attestation of each UTC day (the graded claim), newest first, 100 a page,",
        "each with issuedAt, horizon (days), confidence (0 to 1), floorUsd, settlesAt (Unix seconds), outcome (pending",
        "until its window closed and the leader graded it; then held, failed or void, never changed), lowestDepthUsd",
        "and lowestDepthDate (the low that decided it), and the attestation exactly as signed (verify it with",
        "verify_attestation). Pass `next` back as `cursor`, unchanged, until it is null. Errors: INVALID_POOL_ID,",
        "POOL_NOT_FOUND, AMBIGUOUS_POOL, INVALID_CURSOR. The same JSON as GET /api/v1/pool/{pool}/claims.",
      ].join(" "),
      inputSchema: {
        pool: poolInput(),
        cursor: stringInput("the `next` of the previous page, unchanged; omit for the first page", {
          maxLength: 100,
        }).optional(),
      },
      outputSchema: sameJsonAs(PoolClaimsSchema, "GET /api/v1/pool/{pool}/claims"),
      annotations: { title: "A pool's claims", ...READ_ONLY },
    },
    async ({ pool, cursor }) =>
      answer("get_pool_claims", deps, () =>
        getPoolClaims(deps.readContext, {
          id: toText(pool),
          cursor: cursor === undefined || cursor === null ? null : toText(cursor),
        }),
      ),
  );
}
