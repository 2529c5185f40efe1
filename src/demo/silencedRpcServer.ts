import type { Address } from "viem";
import { serveJsonRpc, type JsonRpcCall, type JsonRpcServer } from "../chain/serveJsonRpc";
import { silencing } from "./silencedRpc";

export type ServeSilencedRpcParameters = {
  /** The chain's own JSON-RPC endpoint (a local chain's `rpcUrl`). */
  upstream: string;
  /** The contract the endpoint refuses at the moment, or null (see {@link silencing}). */
  silenced: () => Address | null;
  /** Loopback port; 0 or omitted picks a free one. */
  port?: number;
};

export type SilencedRpcServer = JsonRpcServer;

/** An upstream JSON-RPC error, passed on to the client as it came. */
class UpstreamRpcError extends Error {
  constructor(readonly error: unknown) {
    super("upstream JSON-RPC error");
  }
}

/**
 * Serves a local chain's JSON-RPC over HTTP through {@link silencing}: the endpoint a process outside the demo reads the
 * chain from (`npm run demo:chains`), so that the demo's silent pool is as silent to it as to the demo's own service.
 * Every request (single or batched) is forwarded to `upstream` unchanged and its answer returned unchanged, error
 * objects included; only calls to the silenced contract are refused (a direct `eth_call` with a JSON-RPC error, inside
 * a Multicall3 `aggregate3` with that call's failure).
 *
 * @param {@link ServeSilencedRpcParameters}
 * @returns the endpoint's URL and `close()`.
 */
export async function serveSilencedRpc({
  upstream,
  silenced,
  port = 0,
}: ServeSilencedRpcParameters): Promise<SilencedRpcServer> {
  let nextId = 0;
  const forward = async (args: { method: string; params?: unknown }) => {
    const response = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++nextId, method: args.method, params: args.params ?? [] }),
    });
    const body = (await response.json()) as { result?: unknown; error?: unknown };
    if (body.error !== undefined) throw new UpstreamRpcError(body.error);
    return body.result;
  };
  const request = silencing(forward, silenced);
  const answer = async (call: JsonRpcCall) => {
    const id = call.id ?? null;
    if (typeof call.method !== "string") {
      return { jsonrpc: "2.0", id, error: { code: -32600, message: "invalid request: method must be a string" } };
    }
    try {
      return { jsonrpc: "2.0", id, result: await request({ method: call.method, params: call.params }) };
    } catch (error) {
      const rpcError =
        error instanceof UpstreamRpcError ? error.error : { code: -32000, message: (error as Error).message };
      return { jsonrpc: "2.0", id, error: rpcError };
    }
  };

  return serveJsonRpc({ answer, port });
}
