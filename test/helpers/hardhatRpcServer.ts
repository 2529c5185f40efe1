import hre from "hardhat";
import { serveJsonRpc, type JsonRpcCall, type JsonRpcServer } from "../../src/chain/serveJsonRpc";

/** A running loopback JSON-RPC endpoint in front of the in-process Hardhat network: give its `url` to the CLI as `--rpc`
 * or to viem's `http()`. */
export type HardhatRpcServer = JsonRpcServer;

/**
 * Starts a JSON-RPC server (`serveJsonRpc`) on a free loopback port that forwards each request (single or batch) to
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
  // Sequential, as `hardhat node` does: a batch's transactions must keep their order.
  return serveJsonRpc({ answer, batches: "sequential" });
}

async function answer(request: JsonRpcCall): Promise<object> {
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
