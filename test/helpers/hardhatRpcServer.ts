import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import hre from "hardhat";

/** A JSON-RPC request as it arrives over HTTP. */
type JsonRpcRequest = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };

/** A running loopback JSON-RPC endpoint in front of the in-process Hardhat network. */
export type HardhatRpcServer = {
  /** `http://127.0.0.1:<port>`: give it to the CLI as `--rpc` or to viem's `http()`. */
  url: string;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
};

/**
 * Starts a tiny `node:http` JSON-RPC server on a free loopback port that forwards each request (single or batch) to
 * `hre.network.provider.request` and answers with its result or error, shaped as `hardhat node` shapes them (the
 * revert data in `error.data.data`), so code under test talks real HTTP to the in-process EVM.
 *
 * @example
 * const rpc = await startHardhatRpcServer();
 * try {
 *   const client = createPublicClient({ transport: http(rpc.url) });
 *   await client.getBlockNumber();
 * } finally {
 *   await rpc.close();
 * }
 */
export async function startHardhatRpcServer(): Promise<HardhatRpcServer> {
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        send(res, 500, { jsonrpc: "2.0", id: null, error: { code: -32603, message: String(error) } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== "POST") {
    send(res, 405, { jsonrpc: "2.0", id: null, error: { code: -32600, message: "POST a JSON-RPC request" } });
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch (error) {
    send(res, 200, { jsonrpc: "2.0", id: null, error: { code: -32700, message: `Parse error: ${String(error)}` } });
    return;
  }
  if (Array.isArray(body)) {
    // Sequential, as `hardhat node` does: a batch's transactions must keep their order.
    const responses = [];
    for (const request of body) responses.push(await answer(request as JsonRpcRequest));
    send(res, 200, responses);
  } else {
    send(res, 200, await answer(body as JsonRpcRequest));
  }
}

async function answer(request: JsonRpcRequest): Promise<object> {
  const id = request !== null && typeof request === "object" && "id" in request ? request.id : null;
  if (request === null || typeof request !== "object" || typeof request.method !== "string") {
    return { jsonrpc: "2.0", id, error: { code: -32600, message: "Invalid request" } };
  }
  try {
    const params = Array.isArray(request.params) ? (request.params as unknown[]) : [];
    const result = await hre.network.provider.request({ method: request.method, params });
    return { jsonrpc: "2.0", id, result: result ?? null };
  } catch (error) {
    return { jsonrpc: "2.0", id, error: toJsonRpcError(error) };
  }
}

/** The error object `hardhat node` sends: its code and message, the revert data in `data.data`. */
function toJsonRpcError(error: unknown): { code: number; message: string; data?: object } {
  const e = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown; transactionHash?: unknown };
  const message = typeof e.message === "string" ? e.message : String(error);
  const code = typeof e.code === "number" ? e.code : -32603;
  const data: Record<string, unknown> = { message };
  if (e.data !== undefined) {
    const inner = e.data as { data?: unknown; transactionHash?: unknown };
    data.data = inner !== null && typeof inner === "object" && inner.data !== undefined ? inner.data : e.data;
    if (inner !== null && typeof inner === "object" && inner.transactionHash !== undefined) {
      data.txHash = inner.transactionHash;
    }
  }
  if (e.transactionHash !== undefined) data.txHash = e.transactionHash;
  return { code, message, data };
}

function send(res: ServerResponse, status: number, payload: unknown): void {
  const text = JSON.stringify(payload, (_key, value: unknown) =>
    typeof value === "bigint" ? `0x${value.toString(16)}` : value,
  );
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
