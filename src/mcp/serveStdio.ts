import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createMcpServer } from "./createMcpServer";
import type { McpDeps } from "./deps";

export type ServeStdioParameters = {
  deps: McpDeps;
  /** Where JSON-RPC messages come from, one per line. Default `process.stdin`. */
  stdin?: Readable;
  /** Where answers go, one per line: nothing else may be written there (logs go to stderr). Default `process.stdout`. */
  stdout?: Writable;
  /** How long answers still in flight when stdin ends are waited for, in ms. Default 30 000. */
  drainTimeoutMs?: number;
};

/**
 * Serves the MCP server over stdio until its client closes stdin, then lets the answers in flight go out and closes.
 * A client stops a stdio server by closing its stdin (`npx` does not forward signals to its child), so that end, not a
 * signal, is the normal way out; a request piped in just before the end still gets its answer.
 *
 * @param {@link ServeStdioParameters}
 * @returns when the client has gone and the server is closed.
 * @example
 * import { serveStdio } from "./mcp/serveStdio";
 * await serveStdio({ deps: { readContext, attester } }); // until stdin ends
 */
export async function serveStdio({
  deps,
  stdin = process.stdin,
  stdout = process.stdout,
  drainTimeoutMs = 30_000,
}: ServeStdioParameters): Promise<void> {
  const ended = new Promise<void>((resolve) => {
    stdin.once("end", resolve);
    stdin.once("close", resolve);
  });
  const server = createMcpServer(deps);
  const transport = new StdioServerTransport(stdin, stdout);
  await server.connect(transport);

  // Requests received minus answers sent, so that the end of stdin waits for the answers still being computed.
  let inFlight = 0;
  let drained: (() => void) | null = null;
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if (isRequest(message)) inFlight++;
    receive?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    await send(message);
    if (isResponse(message) && --inFlight === 0) drained?.();
  };

  await ended;
  if (inFlight > 0) {
    await new Promise<void>((resolve) => {
      drained = resolve;
      setTimeout(resolve, drainTimeoutMs).unref();
    });
  }
  await server.close();
}

function isRequest(message: JSONRPCMessage): boolean {
  return "method" in message && "id" in message;
}

function isResponse(message: JSONRPCMessage): boolean {
  return !("method" in message) && "id" in message;
}
