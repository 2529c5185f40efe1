import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { getAccuracy } from "../../read/getAccuracy";
import { AccuracySchema } from "../../read/schemas/accuracy";
import type { McpDeps } from "../deps";
import { answer } from "../internal/answer";
import { READ_ONLY, sameJsonAs } from "../internal/descriptions";

/** `get_accuracy_record`: the accuracy record, exactly as `GET /api/v1/accuracy`. */
export function registerTool(server: McpServer, deps: McpDeps): RegisteredTool {
  return server.registerTool(
    "get_accuracy_record",
    {
      title: "The accuracy record: signed claims graded",
      description: [
        "Whether this attester's signed claims came true: every pool's first attestation of a UTC day, graded once its",
        "window (the horizon days after the issuance day) closed, from observed daily lows only. failed: a window day's",
        "low below the floor; void: a window day without an observed low; held: every day at or above it. Returns",
        "asOf (the last graded claim's settle day, null while nothing is graded), graded, held, failed, void, brier",
        "(held 1, failed 0, void left out; null when none), calibration buckets (n, effectiveN, meanConfidence,",
        "holdRate, interval90), byHorizon and recent (the 20 latest graded claims, latest settle first). A pool's claims with their signed",
        "attestations: get_pool_claims. The same JSON as GET /api/v1/accuracy.",
      ].join(" "),
      inputSchema: {},
      outputSchema: sameJsonAs(AccuracySchema, "GET /api/v1/accuracy"),
      annotations: { title: "Accuracy record", ...READ_ONLY },
    },
    async () => answer("get_accuracy_record", deps, () => getAccuracy(deps.readContext)),
  );
}
