import { expect } from "chai";
import {
  createPublicClient,
  custom,
  encodeAbiParameters,
  HttpRequestError,
  numberToHex,
  RpcRequestError,
  toEventSelector,
  type PublicClient,
} from "viem";
import { classifyLogRangeError, NodeBehindError, providerErrorText } from "../../../src/ingest/onchain/logRangeErrors";
import { readLogRanges } from "../../../src/ingest/onchain/readLogRanges";
import { planLogRanges } from "../../../src/ingest/rows/logRanges";
import { swapEvent } from "../../../src/ingest/steps/swapLogs";
import { PROVIDER_RANGE_ERRORS } from "../../helpers/ingest/faultyRpcProxy";

const requested = { fromBlock: 0x1000n, toBlock: 0x1000n + 1999n };
const url = "http://127.0.0.1:1";

/** The error viem's http transport throws for a JSON-RPC error answer. */
const rpcError = (error: { code: number; message: string; data?: unknown }, status?: number) =>
  new RpcRequestError({ body: { method: "eth_getLogs" }, error, url, ...(status ? { status } : {}) });

describe("eth_getLogs provider errors: one classifier", function () {
  it("splits on each provider's range error, with the suggested range when it gives one inside the request", function () {
    const cases: [string, { code: number; message: string; data?: unknown }, bigint | undefined][] = [
      ["Infura -32005 (data and message)", PROVIDER_RANGE_ERRORS.infura(requested.fromBlock, 100), 0x1000n + 99n],
      ["Alchemy -32602", PROVIDER_RANGE_ERRORS.alchemy(requested.fromBlock, 500), 0x1000n + 499n],
      ["Alchemy free tier -32600", PROVIDER_RANGE_ERRORS.alchemyFree(requested.fromBlock, 10), 0x1000n + 9n],
      ["QuickNode -32614", PROVIDER_RANGE_ERRORS.quicknode(requested.fromBlock, 1000), 0x1000n + 999n],
      // A stated maximum at or above the request does not narrow it: halved.
      ["QuickNode -32614, 10,000", PROVIDER_RANGE_ERRORS.quicknode(requested.fromBlock, 10_000), undefined],
      ["geth/erigon -32000", PROVIDER_RANGE_ERRORS.geth(), undefined],
      ["Ankr -32600", PROVIDER_RANGE_ERRORS.ankr(), undefined],
      ["Chainstack", PROVIDER_RANGE_ERRORS.chainstack(), undefined],
      ["Ankr (newer)", { code: -32602, message: "maximum [from, to] blocks distance: 1000" }, 0x1000n + 999n],
      ["Infura range check -32602", { code: -32602, message: "range 2000 exceeds limit of 500" }, 0x1000n + 499n],
      ["Cloudflare", { code: -32047, message: "Invalid eth_getLogs request. Max range: 800" }, 0x1000n + 799n],
      ["Base / op-geth", { code: -32000, message: "block range too large" }, undefined],
      [
        "Alchemy, older",
        { code: -32602, message: "Log response size exceeded. Please reduce query block range." },
        undefined,
      ],
      ["Arbitrum", { code: -32000, message: "logs matched by query exceeds limit of 10000" }, undefined],
      ["NodeReal / BSC", { code: -32000, message: "exceed maximum block range: 500" }, 0x1000n + 499n],
    ];
    for (const [name, error, suggestedTo] of cases) {
      const kind = classifyLogRangeError(rpcError(error), requested);
      const expected =
        suggestedTo === undefined
          ? { kind: "range" }
          : { kind: "range", suggested: { fromBlock: requested.fromBlock, toBlock: suggestedTo } };
      expect(kind, name).to.deep.equal(expected);
    }
  });

  it("ignores a suggested range that does not start at the request or does not narrow it (halved instead)", function () {
    const elsewhere = {
      code: -32005,
      message: "query returned more than 10000 results. Try with this block range [0x1, 0x5].",
    };
    expect(classifyLogRangeError(rpcError(elsewhere), requested)).to.deep.equal({ kind: "range" });
    const wider = PROVIDER_RANGE_ERRORS.infura(requested.fromBlock, 5000);
    expect(classifyLogRangeError(rpcError(wider), requested)).to.deep.equal({ kind: "range" });
  });

  it("never splits on a rate limit or another error", function () {
    const rate: { code: number; message: string }[] = [
      { code: -32005, message: "limit exceeded" },
      { code: -32005, message: "daily request count exceeded, request rate limited" },
      { code: -32005, message: "project ID request rate exceeded" },
      { code: -32007, message: "request limit reached" },
      { code: 429, message: "Your app has exceeded its compute units per second capacity." },
    ];
    for (const error of rate)
      expect(classifyLogRangeError(rpcError(error), requested), error.message).to.deep.equal({ kind: "rate-limited" });
    const http429 = new HttpRequestError({ url, status: 429, details: "Too Many Requests" });
    expect(classifyLogRangeError(http429, requested)).to.deep.equal({ kind: "rate-limited" });
    // A rate limit with a JSON-RPC body and the 429 status: not split even with a range code.
    expect(classifyLogRangeError(rpcError({ code: -32602, message: "rate limited" }, 429), requested)).to.deep.equal({
      kind: "rate-limited",
    });
    for (const error of [
      { code: -32046, message: "Cannot fulfill request" },
      { code: -32000, message: "header not found" },
      { code: -32603, message: "internal error" },
    ])
      expect(classifyLogRangeError(rpcError(error), requested), error.message).to.deep.equal({ kind: "other" });
    expect(classifyLogRangeError(new Error("fetch failed"), requested)).to.deep.equal({ kind: "other" });
  });

  it("keeps the provider's own code and message, not viem's generic text", function () {
    const error = rpcError(PROVIDER_RANGE_ERRORS.infura(0xcb5c34n, 96));
    expect(providerErrorText(error)).to.equal(
      "-32005 query returned more than 10000 results. Try with this block range [0xCB5C34, 0xCB5C93].",
    );
    // Wrapped as viem's public client wraps it (LimitExceededRpcError and the like keep it as `cause`).
    const wrapped = Object.assign(new Error("Request exceeds defined limit."), { code: -32005, cause: error });
    expect(providerErrorText(wrapped)).to.match(/^-32005 query returned more than 10000 results/);
    expect(providerErrorText(rpcError({ code: 429, message: "slow down" }, 429))).to.equal("HTTP 429 slow down");
  });
});

/**
 * An in-process node (EIP-1193, so the header and the logs are two requests) with one `Swap` log in every block of
 * `[0, head]`, refusing an `eth_getLogs` wider than `maxSpan` blocks with `refuse`.
 */
function fakeNode(parameters: {
  head: bigint;
  maxSpan: number;
  refuse: (from: bigint) => { code: number; message: string };
}) {
  const spans: [bigint, bigint, boolean][] = [];
  const address = "0x00000000000000000000000000000000000000aa";
  const client = createPublicClient({
    transport: custom(
      {
        async request({ method, params }: { method: string; params?: unknown[] }) {
          if (method === "eth_getBlockByNumber") {
            const n = BigInt(params![0] as string);
            return n > parameters.head
              ? null
              : { number: numberToHex(n), hash: numberToHex(n, { size: 32 }), timestamp: numberToHex(1000n + n) };
          }
          if (method === "eth_getLogs") {
            const filter = params![0] as { fromBlock: string; toBlock: string };
            const [from, to] = [BigInt(filter.fromBlock), BigInt(filter.toBlock)];
            const refused = to - from + 1n > BigInt(parameters.maxSpan);
            spans.push([from, to, refused]);
            if (refused) throw Object.assign(new Error(parameters.refuse(from).message), parameters.refuse(from));
            const logs = [];
            for (let n = from; n <= to && n <= parameters.head; n++)
              logs.push({
                address,
                blockNumber: numberToHex(n),
                blockHash: numberToHex(n, { size: 32 }),
                logIndex: "0x0",
                transactionIndex: "0x0",
                transactionHash: numberToHex(n, { size: 32 }),
                removed: false,
                topics: [toEventSelector(swapEvent), numberToHex(1n, { size: 32 }), numberToHex(2n, { size: 32 })],
                data: encodeAbiParameters(
                  [{ type: "uint256" }, { type: "uint256" }, { type: "uint256" }, { type: "uint256" }],
                  [n, 0n, 0n, 1n],
                ),
              });
            return logs;
          }
          throw new Error(`unexpected ${method}`);
        },
      },
      { retryCount: 0 },
    ),
  }) as PublicClient;
  return { client, spans, address };
}

describe("eth_getLogs range splitting", function () {
  const plan = (address: string, toBlock: bigint, maxRanges = 200) =>
    planLogRanges({ members: [{ address, nextBlock: 0n }], toBlock, rangeBlocks: 2000, maxRanges });

  it("halves down to one block and reads every block once, in order", async () => {
    const node = fakeNode({ head: 40n, maxSpan: 1, refuse: () => PROVIDER_RANGE_ERRORS.geth() });
    const read = await readLogRanges({ client: node.client, groups: plan(node.address, 40n), events: [swapEvent] });
    expect(read.error).to.equal(undefined);
    const member = read.members[0];
    expect(member.readTo).to.equal(40n);
    expect(member.logs.map((l) => l.blockNumber)).to.deep.equal(Array.from({ length: 41 }, (_, i) => BigInt(i)));
    // 41 → 20 → 10 → 5 → 2 → 1 blocks: five refusals, then one block a request, the narrowed span kept.
    const refused = node.spans.filter(([, , r]) => r);
    expect(refused.map(([from, to]) => to - from + 1n)).to.deep.equal([41n, 20n, 10n, 5n, 2n]);
    const served = node.spans.filter(([, , r]) => !r);
    expect(served).to.have.length(41);
    expect(served.every(([from, to]) => from === to)).to.equal(true);
    expect(read.narrowed).to.equal(5);
    expect(member.readToHeader).to.deep.equal({ hash: numberToHex(40n, { size: 32 }), timestamp: 1040 });
  });

  it("takes the provider's suggested range in one step", async () => {
    const node = fakeNode({ head: 40n, maxSpan: 7, refuse: (from) => PROVIDER_RANGE_ERRORS.infura(from, 7) });
    const read = await readLogRanges({ client: node.client, groups: plan(node.address, 40n), events: [swapEvent] });
    expect(read.members[0].readTo).to.equal(40n);
    expect(node.spans.map(([from, to, r]) => [Number(from), Number(to), r])).to.deep.equal([
      [0, 40, true],
      [0, 6, false],
      [7, 13, false],
      [14, 20, false],
      [21, 27, false],
      [28, 34, false],
      [35, 40, false],
    ]);
  });

  it("fails with the provider's message when even one block is refused; what was read is kept", async () => {
    const node = fakeNode({ head: 10n, maxSpan: 0, refuse: () => PROVIDER_RANGE_ERRORS.geth() });
    const read = await readLogRanges({ client: node.client, groups: plan(node.address, 10n), events: [swapEvent] });
    expect(read.members[0].readTo).to.equal(null);
    expect(providerErrorText(read.error)).to.equal("-32000 query returned more than 10000 results");
    expect(node.spans.map(([from, to]) => to - from + 1n)).to.deep.equal([11n, 5n, 2n, 1n]);
  });

  it("stops at the request budget, narrowed retries included, and keeps what it read", async () => {
    const node = fakeNode({ head: 40n, maxSpan: 4, refuse: () => PROVIDER_RANGE_ERRORS.ankr() });
    const read = await readLogRanges({
      client: node.client,
      groups: plan(node.address, 40n),
      events: [swapEvent],
      maxRequests: 6,
    });
    // 41 → 20 → 10 → 5 refused (within the narrowing allowance: 41 is 6 bits), then six ranges of 2 blocks.
    expect(node.spans).to.have.length(10);
    expect(node.spans.filter(([, , refused]) => !refused)).to.have.length(6);
    expect(read.budgetSpent).to.equal(true);
    expect(read.error).to.equal(undefined);
    expect(read.members[0].readTo).to.equal(11n);
    expect(read.members[0].logs).to.have.length(12);
    // Refusals beyond the allowance count: with a budget of 1, a node refusing everything above one block still
    // gets one block read.
    const tight = fakeNode({ head: 40n, maxSpan: 1, refuse: () => PROVIDER_RANGE_ERRORS.ankr() });
    const one = await readLogRanges({
      client: tight.client,
      groups: plan(tight.address, 40n),
      events: [swapEvent],
      maxRequests: 1,
    });
    expect(one.members[0].readTo).to.equal(0n);
    expect(tight.spans.filter(([, , refused]) => !refused)).to.have.length(1);
  });

  it("never takes a range as read when the node has no header for its last block", async () => {
    const node = fakeNode({ head: 25n, maxSpan: 10, refuse: (from) => PROVIDER_RANGE_ERRORS.quicknode(from, 10) });
    const read = await readLogRanges({ client: node.client, groups: plan(node.address, 40n), events: [swapEvent] });
    // In-process (two requests), the header is asked first: the first range's last block is unknown, nothing is read.
    expect(read.error).to.be.instanceOf(NodeBehindError);
    expect((read.error as Error).message).to.equal("RPC node is behind: it does not know block 40");
    expect(read.members[0].readTo).to.equal(null);
    expect(node.spans).to.deep.equal([]);
    // A plan within the node's head is read whole, the span narrowed on the way.
    const within = await readLogRanges({ client: node.client, groups: plan(node.address, 25n), events: [swapEvent] });
    expect(within.error).to.equal(undefined);
    expect(within.members[0].readTo).to.equal(25n);
    expect(within.members[0].logs).to.have.length(26);
  });
});
