import type { BlockRange } from "../rows/logRanges";

/**
 * What a failed `eth_getLogs` means for the reader:
 * - `range`: the provider refused the span or the size of the answer; the same request will fail again, a narrower one
 *   may not. `suggested` is the narrower range to try next, when the provider's answer gives one (an explicit
 *   `[from, to]`, or a maximum span) that starts at the requested block and ends inside the request; else the reader
 *   halves the span.
 * - `rate-limited`: the provider refused the request rate or a quota (HTTP 429, "limit exceeded", "daily request
 *   count exceeded"): narrowing would only spend more requests, so the read stops for this pass.
 * - `other`: anything else (a node error, a timeout, a transient "Cannot fulfill request"): the read stops.
 */
export type LogRangeErrorKind =
  { kind: "range"; suggested?: BlockRange } | { kind: "rate-limited" } | { kind: "other" };

/** The JSON-RPC error behind a failed request, as the provider sent it, found through viem's error chain. */
export interface ProviderError {
  /** The JSON-RPC error code, when there was one. */
  code?: number;
  /** The provider's own message (not viem's generic one). */
  message: string;
  /** The JSON-RPC error's `data`, when there was one. */
  data?: unknown;
  /** The HTTP status, when the answer was not a 2xx. */
  status?: number;
}

/**
 * Range and size errors of `eth_getLogs`, each as the provider documents or sends it. A maximum span in the message
 * (group 1) is used as the next span.
 */
const RANGE_MESSAGES: readonly RegExp[] = [
  /query returned more than [\d,]+ results/i, // Infura -32005, geth/erigon -32000, zkEVM
  /log response size exceeded/i, // Alchemy -32602
  /up to a ([\d,]+) block range/i, // Alchemy -32600 (free tier), Aurora
  /is limited to a ([\d,]+) range/i, // QuickNode -32614, 1RPC, Blast
  /block range is too wide(?: \(maximum (\d+)\))?/i, // Ankr -32600, Moonbeam
  /maximum \[from, to\] blocks distance: (\d+)/i, // Ankr (newer)
  /block range (?:is )?too large/i, // geth-based L2s (Base, Optimism), Cloudflare
  /block range limit exceeded/i, // Chainstack
  /max range: (\d+)/i, // Cloudflare
  /exceed(?:s|ed)? (?:the )?max(?:imum)? block range:? ?(\d+)?/i, // NodeReal, BSC, PublicNode
  /maximum block range: ([\d,]+)/i, // PublicNode
  /block range is larger than max block range(?:.*max block range = (\d+))?/i, // op-geth forks
  /range (\d+) exceeds limit of (\d+)/i, // Infura's range check (-32602); group 2 is the limit
  /range \d+ is bigger than range limit (\d+)/i, // Tenderly
  /requested too many blocks from \d+ to \d+, maximum is set to (\d+)/i, // Avalanche
  /please limit the query to at most ([\d,]+) blocks/i, // Coinbase
  /query exceeds max (?:results|block range)/i, // Erigon, Llamarpc, Ankr
  /logs matched by query exceeds limit of \d+/i, // Arbitrum (Nitro)
  /response size should not greater than \d+ bytes/i, // 1RPC
  /backend response too large/i, // Optimism
];

/** Rate limits and quotas: never narrowed. Checked after the range messages ("Log response size exceeded"). */
const RATE_MESSAGES: readonly RegExp[] = [
  /^limit exceeded$/i, // Infura -32005, Ankr, Base: a pure rate limit
  /rate limit/i,
  /request rate exceeded/i, // Infura "project ID request rate exceeded"
  /daily request count exceeded/i, // Infura
  /request limit reached/i, // QuickNode -32007
  /too many requests/i,
  /compute units per second/i, // Alchemy 429
  /capacity exceeded/i,
];

/**
 * The provider's error behind `error`: walks viem's `cause` chain to the JSON-RPC error (its code, its own message —
 * `details` — and `data`), and the HTTP status where the answer was not a 2xx.
 */
export function providerError(error: unknown): ProviderError {
  let code: number | undefined;
  let message: string | undefined;
  let data: unknown;
  let status: number | undefined;
  const seen = new Set<unknown>();
  for (let node: unknown = error; node !== null && typeof node === "object" && !seen.has(node);) {
    seen.add(node);
    const n = node as { code?: unknown; details?: unknown; message?: unknown; data?: unknown; status?: unknown };
    if (status === undefined && typeof n.status === "number") status = n.status;
    if (typeof n.code === "number" && Number.isInteger(n.code)) {
      code = n.code;
      const own = typeof n.details === "string" && n.details !== "" ? n.details : n.message;
      if (typeof own === "string" && own !== "") message = own;
      if (n.data !== undefined) data = n.data;
    }
    node = (node as { cause?: unknown }).cause;
  }
  if (message === undefined) {
    const e = error as { shortMessage?: unknown; details?: unknown; message?: unknown } | null;
    const text = [e?.details, e?.shortMessage, e?.message].find((t) => typeof t === "string" && t !== "");
    message = typeof text === "string" ? text : String(error);
  }
  return {
    message,
    ...(code !== undefined ? { code } : {}),
    ...(data !== undefined ? { data } : {}),
    ...(status !== undefined ? { status } : {}),
  };
}

/**
 * The provider's error as one line for a source's report: `-32005 query returned more than 10000 results. Try with
 * this block range [0x…, 0x…].`, prefixed with `HTTP 429` when the status was not a 2xx.
 */
export function providerErrorText(error: unknown): string {
  const { code, message, status } = providerError(error);
  const http = status !== undefined && (status < 200 || status > 299) ? `HTTP ${status}` : "";
  const head = [http, code !== undefined && !(http !== "" && code === status) ? code : ""]
    .filter((part) => part !== "")
    .join(" ");
  return head === "" ? message : `${head} ${message}`;
}

/**
 * Classifies a failed `eth_getLogs` of `requested` by the provider's code, message and data, in this one place.
 * A range or size error (Infura -32005 "query returned more than 10000 results", Alchemy -32602 "Log response size
 * exceeded", QuickNode -32614, Ankr, Chainstack, Cloudflare, geth and erigon ones …) is `range`, with the provider's
 * suggested range when it gives one inside the request (Infura's `data.from/to` or "[0x…, 0x…]" in the message, or a
 * stated maximum span); a rate limit (HTTP 429, -32005 "limit exceeded", -32007, "daily request count exceeded") is
 * `rate-limited`, even with a range code; anything else (e.g. -32046 "Cannot fulfill request") is `other`.
 */
export function classifyLogRangeError(error: unknown, requested: BlockRange): LogRangeErrorKind {
  const { code, message, data, status } = providerError(error);
  const text = message.trim();
  if (status === 429 || code === 429 || code === -32007) return { kind: "rate-limited" };
  const range = RANGE_MESSAGES.map((pattern) => pattern.exec(text)).find((match) => match !== null);
  if (!range) {
    if (RATE_MESSAGES.some((pattern) => pattern.test(text))) return { kind: "rate-limited" };
    return { kind: "other" };
  }
  const span = range
    .slice(1)
    .filter((group) => group !== undefined)
    .at(-1);
  const suggested = explicitRange(text, data, requested) ?? maximumSpan(span, requested) ?? undefined;
  return suggested ? { kind: "range", suggested } : { kind: "range" };
}

/** Infura's `data: {from, to}`, or a `[0x…, 0x…]` in the message, when it starts the request and narrows it. */
function explicitRange(text: string, data: unknown, requested: BlockRange): BlockRange | null {
  const fromData = data as { from?: unknown; to?: unknown } | null | undefined;
  const candidates: [unknown, unknown][] = [];
  if (fromData && typeof fromData === "object") candidates.push([fromData.from, fromData.to]);
  const match = /\[\s*(0x[0-9a-f]+)\s*,\s*(0x[0-9a-f]+)\s*\]/i.exec(text);
  if (match) candidates.push([match[1], match[2]]);
  for (const [from, to] of candidates) {
    const range = narrowing(toBlockNumber(from), toBlockNumber(to), requested);
    if (range) return range;
  }
  return null;
}

/** `[requested.from, requested.from + span − 1]` for a stated maximum span, when it narrows the request. */
function maximumSpan(span: string | undefined, requested: BlockRange): BlockRange | null {
  if (span === undefined) return null;
  const blocks = BigInt(span.replace(/[,.]/g, ""));
  if (blocks < 1n) return null;
  return narrowing(requested.fromBlock, requested.fromBlock + blocks - 1n, requested);
}

/** The range when it starts at the request's first block and ends inside it, before its last. */
function narrowing(from: bigint | null, to: bigint | null, requested: BlockRange): BlockRange | null {
  if (from === null || to === null) return null;
  if (from !== requested.fromBlock || to < from || to >= requested.toBlock) return null;
  return { fromBlock: from, toBlock: to };
}

function toBlockNumber(value: unknown): bigint | null {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === "string" && /^(0x[0-9a-f]+|\d+)$/i.test(value)) return BigInt(value);
  return null;
}

/**
 * The reading endpoint does not know a block the read needs (its header is missing: a node behind, or a
 * load-balanced provider whose node answering this request is behind). The read stops there; nothing after the
 * last block the endpoint showed it knows is taken as read.
 */
export class NodeBehindError extends Error {
  constructor(readonly block: bigint) {
    super(`RPC node is behind: it does not know block ${block}`);
    this.name = "NodeBehindError";
  }
}
