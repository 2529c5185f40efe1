import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ApiErrorCode } from "../../errors/http";
import { publicErrorBody, type ErrorBody } from "../../errors/publicErrorBody";
import type { McpDeps } from "../deps";

/** A tool's success: the body as `structuredContent`, and the same JSON as text (for clients that read only text). */
export function toolResult(body: object): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(body) }],
    structuredContent: body as Record<string, unknown>,
  };
}

/**
 * A tool's failure: `isError`, and as text the API's error body `{"error":{"code","message",…}}` (the same code,
 * message and `field`/`pool`/`candidates`/`reason` the REST route answers). No `structuredContent`: on SDK 1.x the
 * client would check it against the tool's output schema. An unexpected error is `INTERNAL_ERROR`, its detail hidden.
 */
export function toolError(error: unknown, tool: string, deps: Pick<McpDeps, "onInternalError">): CallToolResult {
  let body: ErrorBody | null = publicErrorBody(error);
  if (body === null) {
    deps.onInternalError?.(error, tool);
    body = { code: ApiErrorCode.internal, message: "Internal server error." };
  }
  return { content: [{ type: "text", text: JSON.stringify({ error: body }) }], isError: true };
}

/** Runs a tool's reader call and turns its result or its error into the tool's answer. Never throws. */
export async function answer(
  tool: string,
  deps: Pick<McpDeps, "onInternalError">,
  run: () => Promise<object> | object,
): Promise<CallToolResult> {
  try {
    return toolResult(await run());
  } catch (error) {
    return toolError(error, tool, deps);
  }
}
