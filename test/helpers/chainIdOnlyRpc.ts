import { serveJsonRpc, type JsonRpcCall, type JsonRpcServer } from "../../src/chain/serveJsonRpc";

/** The answer of a node of `chainId` that serves nothing but `eth_chainId`: any other method is not found (-32601). */
export function chainIdOnlyAnswer(chainId: number): (call: JsonRpcCall) => object {
  return (call) =>
    call.method === "eth_chainId"
      ? { jsonrpc: "2.0", id: call.id, result: `0x${chainId.toString(16)}` }
      : { jsonrpc: "2.0", id: call.id, error: { code: -32601, message: "method not found" } };
}

/**
 * A JSON-RPC endpoint on loopback that is chain `chainId` and answers nothing else: the start-up check passes, and a
 * pass reads nothing from it and goes on.
 */
export function startChainIdOnlyRpc(chainId: number): Promise<JsonRpcServer> {
  return serveJsonRpc({ answer: chainIdOnlyAnswer(chainId) });
}
