import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { getModelEvaluation } from "../../read/getModelEvaluation";
import { ModelEvaluationSchema } from "../../read/schemas/modelEvaluation";
import type { McpDeps } from "../deps";
import { answer } from "../internal/answer";
import { READ_ONLY, sameJsonAs } from "../internal/descriptions";

/** `get_model_evaluation`: what a confidence is worth (`GET /api/v1/model`, docs/model.md). */
export function registerTool(server: McpServer, deps: McpDeps): RegisteredTool {
  return server.registerTool(
    "get_model_evaluation",
    {
      title: "How well the horizon model's confidence holds up",
      description: [
        "The walk-forward evaluation of the model that issues attestations: for each tracked pool and past day, the",
        "claim the model would have made using only the days up to it (asOf, horizon, confidence, floorUsd: half the",
        "depth that day's attestation states, else half the day's low; campaign caps applied), graded once its window",
        "closed by the accuracy record's rule (failed: an observed daily low below floorUsd; else void: a day without",
        "an observed low, counted, not scored; else held). Gives claims, scored, held, void, brier beside baselineBrier",
        "(climatology: each claim forecast by the pooled hold rate of windows of its horizon closed by its day; lower is",
        "better), buckets (from, to, n,",
        "effectiveN: overlapping windows counted as min(1, 2/h) each, meanConfidence, holdRate, interval90: its 90 %",
        "Wilson interval on effectiveN; calibration), byHorizon (horizon, n, holdRate) and a sample of scored claims to",
        "recompute with get_pool_history (every scored claim: get_model_claims). evaluation and computedAt are null before the first issuing pass; versions lists",
        "every model version's evaluation on the same data. It judges the model on",
        "past data, not any issued attestation. The same JSON as GET /api/v1/model.",
      ].join(" "),
      outputSchema: sameJsonAs(ModelEvaluationSchema, "GET /api/v1/model"),
      annotations: { title: "Model evaluation", ...READ_ONLY },
    },
    async () => answer("get_model_evaluation", deps, () => getModelEvaluation(deps.readContext)),
  );
}
