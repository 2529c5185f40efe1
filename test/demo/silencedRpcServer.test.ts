import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import type { Address } from "viem";
import { SILENCED_REASON } from "../../src/demo/silencedRpc";
import { serveSilencedRpc, type SilencedRpcServer } from "../../src/demo/silencedRpcServer";

const SILENT: Address = "0x31b6D818E0B090fD4383A55f377ab82481E83816";
const OTHER: Address = "0x2f29159184eadc6c2f80725a0c4223121d7b40d5";

describe("serveSilencedRpc (demo:chains' endpoint in front of a chain)", function () {
  let upstream: Server;
  let endpoint: SilencedRpcServer;
  let silenced: Address | null = SILENT;
  const received: { method: string }[] = [];

  before(async function () {
    // A stand-in chain: eth_chainId answers, eth_call answers 0x01, anything else is an error with data.
    upstream = createServer((req, res) => {
      let text = "";
      req.on("data", (chunk: Buffer) => (text += chunk.toString()));
      req.on("end", () => {
        const call = JSON.parse(text) as { id: number; method: string };
        received.push(call);
        const answer =
          call.method === "eth_chainId"
            ? { result: "0x2105" }
            : call.method === "eth_call"
              ? { result: "0x01" }
              : { error: { code: -32601, message: `no ${call.method}`, data: "0xdead" } };
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: call.id, ...answer }));
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", () => resolve()));
    endpoint = await serveSilencedRpc({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      silenced: () => silenced,
    });
  });

  after(async function () {
    await endpoint?.close();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  const post = async (body: unknown) => {
    const response = await fetch(endpoint.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  };
  const call = (id: number, to: Address) => ({
    jsonrpc: "2.0",
    id,
    method: "eth_call",
    params: [{ to, data: "0x0902f1ac" }, "latest"],
  });

  it("passes requests through, single and batched, keeping each id", async function () {
    expect((await post({ jsonrpc: "2.0", id: 7, method: "eth_chainId", params: [] })).body).to.deep.equal({
      jsonrpc: "2.0",
      id: 7,
      result: "0x2105",
    });
    const batch = await post([{ jsonrpc: "2.0", id: 1, method: "eth_chainId" }, call(2, OTHER)]);
    expect(batch.body).to.deep.equal([
      { jsonrpc: "2.0", id: 1, result: "0x2105" },
      { jsonrpc: "2.0", id: 2, result: "0x01" },
    ]);
  });

  it("hands on the chain's own error object unchanged", async function () {
    expect((await post({ jsonrpc: "2.0", id: 3, method: "eth_nothing", params: [] })).body).to.deep.equal({
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32601, message: "no eth_nothing", data: "0xdead" },
    });
  });

  it("refuses a call to the silenced contract without asking the chain, and answers it again once it is not", async function () {
    const before = received.length;
    const refused = (await post(call(4, SILENT))).body as { error: { message: string } };
    expect(refused.error.message).to.equal(SILENCED_REASON);
    expect(received.length).to.equal(before);
    silenced = null;
    expect((await post(call(5, SILENT))).body).to.deep.equal({ jsonrpc: "2.0", id: 5, result: "0x01" });
    silenced = SILENT;
  });

  it("answers bad requests with JSON-RPC errors: not JSON, no method, not POST", async function () {
    expect(((await post("{not json")).body as { error: { code: number } }).error.code).to.equal(-32700);
    expect(((await post({ jsonrpc: "2.0", id: 6 })).body as { error: { code: number } }).error.code).to.equal(-32600);
    const get = await fetch(endpoint.url);
    expect(get.status).to.equal(405);
  });
});
