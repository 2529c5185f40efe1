import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { numberToHex } from "viem";

/** One JSON-RPC call as the proxy received it. */
export interface ProxiedCall {
  method: string;
  params: unknown[];
  /** Whether it came inside a batch (with the other calls of that HTTP request). */
  batch: boolean;
  /** For `eth_getLogs`: the requested span in blocks. */
  span?: number;
  /** The error the proxy answered with, if any. */
  error?: { code: number; message: string };
}

/** A JSON-RPC error object. */
export interface RpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * Range and size errors of `eth_getLogs` as each provider sends them (code and message), for a request of
 * `[from, to]` refused because it is wider than `maxSpan` blocks. Where the provider suggests a range, the
 * suggestion is the request's first `maxSpan` blocks.
 */
export const PROVIDER_RANGE_ERRORS = {
  /** Infura: -32005 with the suggested range in the message and in `data`. */
  infura: (from: bigint, maxSpan: number): RpcErrorBody => {
    const upper = (hex: string) => `0x${hex.slice(2).toUpperCase()}`;
    const [a, b] = [upper(numberToHex(from)), upper(suggestedEnd(from, maxSpan))];
    return {
      code: -32005,
      message: `query returned more than 10000 results. Try with this block range [${a}, ${b}].`,
      data: { from: a, limit: 10000, to: b },
    };
  },
  /** Alchemy (paid): -32602 "Log response size exceeded", with a suggested range. */
  alchemy: (from: bigint, maxSpan: number): RpcErrorBody => ({
    code: -32602,
    message:
      "Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on " +
      "the response size, or you can request any block range with a cap of 10K logs in the response. Based on your " +
      `parameters and the response size limit, this block range should work: [${numberToHex(from)}, ${suggestedEnd(from, maxSpan)}]`,
  }),
  /** Alchemy (free tier): -32600 with the plan's span and a suggested range. */
  alchemyFree: (from: bigint, maxSpan: number): RpcErrorBody => ({
    code: -32600,
    message:
      `Under the Free tier plan, you can make eth_getLogs requests with up to a ${maxSpan} block range. Based on ` +
      `your parameters, this block range should work: [${numberToHex(from)}, ${suggestedEnd(from, maxSpan)}]`,
  }),
  /** QuickNode: -32614 with the plan's maximum span. */
  quicknode: (_from: bigint, maxSpan: number): RpcErrorBody => ({
    code: -32614,
    message: `eth_getLogs is limited to a ${maxSpan.toLocaleString("en-US")} range`,
  }),
  /** geth / erigon: -32000, no range given. */
  geth: (): RpcErrorBody => ({ code: -32000, message: "query returned more than 10000 results" }),
  /** Ankr: -32600 "block range is too wide", no range given. */
  ankr: (): RpcErrorBody => ({ code: -32600, message: "block range is too wide" }),
  /** Chainstack: "Block range limit exceeded.", no range given (its code is not documented; -32000 here). */
  chainstack: (): RpcErrorBody => ({ code: -32000, message: "Block range limit exceeded." }),
} as const;

export type RangeErrorProvider = keyof typeof PROVIDER_RANGE_ERRORS;

function suggestedEnd(from: bigint, maxSpan: number): string {
  return numberToHex(from + BigInt(Math.max(1, maxSpan)) - 1n);
}

/** What the proxy does wrong. */
export type RpcFault =
  /** `eth_getLogs` wider than `maxSpan` blocks (0: every request) answered with the provider's range error. */
  | { kind: "range"; provider: RangeErrorProvider; maxSpan: number }
  /**
   * A load-balanced provider whose log index lags at `head`: a single `eth_getLogs` answers logs up to `head` only,
   * without an error, while single header requests know every block; a batch goes whole to the lagging node (headers
   * above `head` are null).
   */
  | { kind: "lagLogs"; head: bigint }
  /** A node lagging on everything at `head`: latest is `head`, headers above it are null, logs stop at it. */
  | { kind: "lagAll"; head: bigint }
  /** Every `eth_getLogs` answered with this JSON-RPC error (HTTP 200). */
  | { kind: "logsError"; error: RpcErrorBody }
  /** Every `eth_getLogs` (alone or in a batch) answered with HTTP 429 and Alchemy's capacity error. */
  | { kind: "http429" }
  /** The next `times` HTTP requests that carry an `eth_getLogs` answered with HTTP 503 (a transient outage). */
  | { kind: "http503"; times: number };

/** A fault-injecting JSON-RPC proxy in front of a real node. */
export interface FaultyRpcProxy {
  url: string;
  /** Every call received, in order. */
  calls: ProxiedCall[];
  /** Calls received of `method`. */
  count(method: string): number;
  /** Sets (or, with null, clears) the fault. */
  setFault(fault: RpcFault | null): void;
  close(): Promise<void>;
}

const TAGS = new Set(["latest", "safe", "finalized", "pending"]);

/**
 * A real HTTP JSON-RPC server on 127.0.0.1 (port 0) in front of `upstream`: single calls and batches (each call of a
 * batch forwarded alone), answered as the node would, except where the fault says otherwise. Its own server rather
 * than `serveJsonRpc`, which always answers HTTP 200: a rate limit needs a 429.
 */
export async function startFaultyRpcProxy(upstream: string): Promise<FaultyRpcProxy> {
  let fault: RpcFault | null = null;
  const calls: ProxiedCall[] = [];

  const forward = async (method: string, params: unknown[]): Promise<{ result?: unknown; error?: RpcErrorBody }> => {
    const response = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const body = (await response.json()) as { result?: unknown; error?: RpcErrorBody };
    return body.error ? { error: body.error } : { result: body.result };
  };

  /** A call answered by a node whose head is `head`. */
  const lagging = async (method: string, params: unknown[], head: bigint) => {
    const blockParam = (value: unknown): bigint | "tag" | null =>
      typeof value === "string" && TAGS.has(value) ? "tag" : typeof value === "string" ? BigInt(value) : null;
    if (method === "eth_blockNumber") return { result: numberToHex(head) };
    if (method === "eth_getBlockByNumber") {
      const at = blockParam(params[0]);
      if (at === "tag") return forward(method, [numberToHex(head), ...params.slice(1)]);
      if (at !== null && at > head) return { result: null };
      return forward(method, params);
    }
    if (method === "eth_getBlockByHash") {
      const answer = await forward(method, params);
      const number = (answer.result as { number?: string } | null)?.number;
      return number !== undefined && BigInt(number) > head ? { result: null } : answer;
    }
    if (method === "eth_getLogs") {
      const filter = { ...(params[0] as { fromBlock?: string; toBlock?: string }) };
      const from = blockParam(filter.fromBlock);
      const to = blockParam(filter.toBlock);
      if (from !== null && from !== "tag" && from > head) return { result: [] };
      if (to === "tag" || to === null || to > head) filter.toBlock = numberToHex(head);
      return forward(method, [filter, ...params.slice(1)]);
    }
    if (["eth_call", "eth_getBalance", "eth_getCode", "eth_getStorageAt", "eth_getTransactionCount"].includes(method)) {
      const last = params.length - 1;
      const at = blockParam(params[last]);
      if (at === "tag") return forward(method, [...params.slice(0, last), numberToHex(head)]);
      if (at !== null && at > head) return { error: { code: -32000, message: "header not found" } };
    }
    return forward(method, params);
  };

  /** One call's answer under the current fault. */
  const answer = async (call: { method: string; params: unknown[] }, inBatch: boolean, batchHasLogs: boolean) => {
    const { method, params } = call;
    const record: ProxiedCall = { method, params, batch: inBatch };
    if (method === "eth_getLogs") {
      const filter = params[0] as { fromBlock?: string; toBlock?: string };
      if (filter.fromBlock?.startsWith("0x") && filter.toBlock?.startsWith("0x"))
        record.span = Number(BigInt(filter.toBlock) - BigInt(filter.fromBlock) + 1n);
    }
    calls.push(record);
    const f = fault;
    let out: { result?: unknown; error?: RpcErrorBody };
    if (f?.kind === "range" && method === "eth_getLogs" && (record.span ?? Infinity) > f.maxSpan) {
      const from = BigInt((params[0] as { fromBlock: string }).fromBlock);
      out = { error: PROVIDER_RANGE_ERRORS[f.provider](from, f.maxSpan) };
    } else if (f?.kind === "logsError" && method === "eth_getLogs") out = { error: f.error };
    else if (f?.kind === "lagAll") out = await lagging(method, params, f.head);
    else if (f?.kind === "lagLogs" && (method === "eth_getLogs" || (inBatch && batchHasLogs)))
      out = await lagging(method, params, f.head);
    else out = await forward(method, params);
    if (out.error) record.error = { code: out.error.code, message: out.error.message };
    return out;
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        send(res, 500, { jsonrpc: "2.0", id: null, error: { code: -32603, message: String(error) } });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
    const list = (Array.isArray(body) ? body : [body]) as { id?: unknown; method: string; params?: unknown[] }[];
    const hasLogs = list.some((c) => c.method === "eth_getLogs");
    if (fault?.kind === "http503" && fault.times > 0 && hasLogs) {
      fault = { ...fault, times: fault.times - 1 };
      for (const c of list)
        calls.push({
          method: c.method,
          params: c.params ?? [],
          batch: Array.isArray(body),
          error: { code: 503, message: "HTTP 503" },
        });
      res.writeHead(503, { "content-type": "text/plain" }).end("Service Unavailable");
      return;
    }
    if (fault?.kind === "http429" && hasLogs) {
      for (const c of list)
        calls.push({
          method: c.method,
          params: c.params ?? [],
          batch: Array.isArray(body),
          error: { code: 429, message: "HTTP 429" },
        });
      const error = {
        code: 429,
        message:
          "Your app has exceeded its compute units per second capacity. If you have retries enabled, you can safely " +
          "ignore this message. If not, check out https://docs.alchemy.com/reference/throughput",
      };
      send(res, 429, { jsonrpc: "2.0", id: list[0]?.id ?? null, error }, { "retry-after": "1" });
      return;
    }
    const answers = [];
    for (const call of list) {
      const out = await answer({ method: call.method, params: call.params ?? [] }, Array.isArray(body), hasLogs);
      answers.push({
        jsonrpc: "2.0",
        id: call.id ?? null,
        ...(out.error ? { error: out.error } : { result: out.result }),
      });
    }
    send(res, 200, Array.isArray(body) ? answers : answers[0]);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    count: (method) => calls.filter((c) => c.method === method).length,
    setFault(next) {
      fault = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  const text = JSON.stringify(payload);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}
