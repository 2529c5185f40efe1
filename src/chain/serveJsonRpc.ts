import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A JSON-RPC request as it arrives over HTTP: nothing in it is checked yet. */
export type JsonRpcCall = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };

export type ServeJsonRpcParameters = {
  /** The response object (`{jsonrpc, id, result}` or `{jsonrpc, id, error}`) to one call of a request or batch. */
  answer: (call: JsonRpcCall) => unknown;
  /** Loopback port; 0 or omitted picks a free one. */
  port?: number;
  /**
   * How a batch is answered: `concurrent` (all calls at once) or `sequential` (one after the other, as `hardhat node`
   * does, so a batch's transactions keep their order). Default `concurrent`.
   */
  batches?: "concurrent" | "sequential";
};

export interface JsonRpcServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/**
 * A JSON-RPC endpoint over HTTP on 127.0.0.1: reads each POST body (one call or a batch) and writes `answer`'s
 * responses, in order. Anything else gets a JSON-RPC error: a method other than POST 405 (-32600), a body that is not
 * JSON -32700, a body that is neither an object nor an array -32600; an `answer` that throws 500 (-32603). Bigints in
 * a response are written as hex quantities. Serves the demo's silenced endpoints and the tests' fake nodes and signers.
 *
 * @param {@link ServeJsonRpcParameters}
 * @returns the endpoint's URL and `close()`.
 */
export async function serveJsonRpc({
  answer,
  port = 0,
  batches = "concurrent",
}: ServeJsonRpcParameters): Promise<JsonRpcServer> {
  const server = createServer((req, res) => {
    handle(req, res, answer, batches).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, rpcError(-32603, String(error)));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Reads one HTTP request's JSON-RPC body and writes the answers. */
async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  answer: ServeJsonRpcParameters["answer"],
  batches: NonNullable<ServeJsonRpcParameters["batches"]>,
): Promise<void> {
  if (req.method !== "POST") {
    send(res, 405, rpcError(-32600, "JSON-RPC takes POST"));
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch (error) {
    send(res, 200, rpcError(-32700, `parse error: ${(error as Error).message}`));
    return;
  }
  if (Array.isArray(body)) {
    const calls = body as JsonRpcCall[];
    if (batches === "concurrent") send(res, 200, await Promise.all(calls.map((call) => answer(call))));
    else {
      const responses = [];
      for (const call of calls) responses.push(await answer(call));
      send(res, 200, responses);
    }
  } else if (typeof body === "object" && body !== null) send(res, 200, await answer(body));
  else send(res, 200, rpcError(-32600, "invalid request"));
}

/** A response without an id (the request's could not be read) carrying `code` and `message`. */
const rpcError = (code: number, message: string) => ({ jsonrpc: "2.0", id: null, error: { code, message } });

/** Writes `payload` as JSON, bigints as hex quantities; nothing once the client has gone. */
function send(res: ServerResponse, status: number, payload: unknown): void {
  if (res.destroyed) return;
  const text = JSON.stringify(payload, (_key, value: unknown) =>
    typeof value === "bigint" ? `0x${value.toString(16)}` : value,
  );
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
