import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { getModelClaims } from "../../read/getModelClaims";
import { ModelClaimsSchema } from "../../read/schemas/modelClaims";
import type { McpDeps } from "../deps";
import { answer } from "../internal/answer";
import { READ_ONLY, sameJsonAs } from "../internal/descriptions";
import { stringInput, toText } from "../internal/inputs";

/** `get_model_claims`: every scored claim of the issuing model's evaluation, paged (`GET /api/v1/model/claims`). */
export function registerTool(server: McpServer, deps: McpDeps): RegisteredTool {
  return server.registerTool(
    "get_model_claims",
    {
      title: "Every scored claim of the model evaluation",
      description: [
        "Every scored claim of the issuing model's latest walk-forward evaluation (get_model_evaluation), 500 a page:",
        "model, computedAt (null before the first issuing pass), scored (claims over all pages), claims by pool, then",
        "asOf, then horizon (pool, asOf, horizon, confidence, floorUsd and outcome: held or failed), next. Over",
        "all pages the evaluation's brier is the mean of (confidence − outcome)², outcome 1 when held, rounded to 6",
        "decimals. Pass `next` back as `cursor`, unchanged, until it is null. Errors: INVALID_CURSOR (a cursor this",
        "service did not hand out, or one of an evaluation recomputed since: start again). The same JSON as",
        "GET /api/v1/model/claims.",
      ].join(" "),
      inputSchema: {
        cursor: stringInput("the `next` of the previous page, unchanged; omit for the first page", {
          maxLength: 100,
        }).optional(),
      },
      outputSchema: sameJsonAs(ModelClaimsSchema, "GET /api/v1/model/claims"),
      annotations: { title: "Model claims", ...READ_ONLY },
    },
    async ({ cursor }) =>
      answer("get_model_claims", deps, () =>
        getModelClaims(deps.readContext, {
          cursor: cursor === undefined || cursor === null ? null : toText(cursor),
        }),
      ),
  );
}
