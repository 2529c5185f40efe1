import {
  decodeFunctionData,
  decodeFunctionResult,
  encodeErrorResult,
  encodeFunctionResult,
  multicall3Abi,
  parseAbi,
  type Address,
  type Hex,
} from "viem";
import { MULTICALL3_ADDRESS } from "../chain/multicall3Address";

/** A JSON-RPC request function, as a viem transport calls it. */
export type RpcRequest = (args: { method: string; params?: unknown }) => Promise<unknown>;

/** The revert reason a silenced pool's calls come back with. */
export const SILENCED_REASON = "demo: this endpoint stopped answering for the pool (simulated outage)";

const errorAbi = parseAbi(["error Error(string)"]);

/**
 * Wraps a local chain's JSON-RPC requests so that the endpoint stops answering for one contract (the demo's
 * simulated outage of one pool's source): while `silenced()` names an address, every call to it fails with the revert
 * reason {@link SILENCED_REASON}. Inside a Multicall3 `aggregate3` (how `readPools` reads), only that contract's
 * calls fail and the others answer as the chain does; a direct `eth_call` to it is refused with a JSON-RPC error.
 * Everything else passes through unchanged. Nothing on the chain changes.
 *
 * @param request the chain's own request function.
 * @param silenced the contract to refuse at the moment, or null.
 */
export function silencing(request: RpcRequest, silenced: () => Address | null): RpcRequest {
  return async (args) => {
    const target = silenced()?.toLowerCase();
    const params = (args.params ?? []) as unknown[];
    const call = params[0] as { to?: string; data?: Hex; input?: Hex } | undefined;
    if (target === undefined || args.method !== "eth_call" || typeof call?.to !== "string") return request(args);
    if (call.to.toLowerCase() === target) throw new Error(SILENCED_REASON);
    const data = call.data ?? call.input;
    if (call.to.toLowerCase() !== MULTICALL3_ADDRESS.toLowerCase() || data === undefined) return request(args);
    const decoded = decodeFunctionData({ abi: multicall3Abi, data });
    if (decoded.functionName !== "aggregate3") return request(args);
    const refused = new Set(decoded.args[0].flatMap((sub, i) => (sub.target.toLowerCase() === target ? [i] : [])));
    if (refused.size === 0) return request(args);
    const answer = (await request(args)) as Hex;
    const results = decodeFunctionResult({ abi: multicall3Abi, functionName: "aggregate3", data: answer });
    const reason = encodeErrorResult({ abi: errorAbi, errorName: "Error", args: [SILENCED_REASON] });
    return encodeFunctionResult({
      abi: multicall3Abi,
      functionName: "aggregate3",
      result: results.map((result, i) => (refused.has(i) ? { success: false, returnData: reason } : result)),
    });
  };
}
