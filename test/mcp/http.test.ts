import { request as httpRequest } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { verifyAttestation } from "../../src/lib/verifyAttestation";
import type { Store } from "../../src/storage/openStore";
import { TEST_ATTESTER } from "../helpers/service/app";
import { GET_CASES, TOOL_NAMES, WETH } from "../helpers/mcp/cases";
import { MCP_NOW, buildMcpApp, expectSuccess, expectToolError, openMcpStore } from "../helpers/mcp/fixture";

/** A JSON-RPC `initialize` request, as a client's first POST. */
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});
const ACCEPT = "application/json, text/event-stream";

/** One raw HTTP request (node:http, so that `Host` can be set); resolves with status, headers and body. */
function raw(
  url: string,
  { method = "POST", headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let text = "";
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  raw(url, { body, headers: { "content-type": "application/json", accept: ACCEPT, ...headers } });

/** An SDK client over Streamable HTTP to `url`/mcp. */
async function connectHttp(url: string): Promise<Client> {
  const client = new Client({ name: "mcp-http-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  return client;
}

describe("MCP over Streamable HTTP on the service's own server (real port, the SDK's Client)", function () {
  let store: Store;
  let cleanup: () => Promise<void>;
  let app: FastifyInstance;
  let url: string;
  let client: Client;

  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;

  before(async function () {
    ({ store, cleanup } = await openMcpStore());
    app = await buildMcpApp(store);
    url = await app.listen({ port: 0, host: "127.0.0.1" });
    client = await connectHttp(url);
  });

  after(async function () {
    await client?.close();
    await app?.close();
    await cleanup?.();
  });

  it("serves every tool of the surface table, each answering the JSON of its route", async function () {
    expect((await client.listTools()).tools.map((tool) => tool.name)).to.deep.equal([...TOOL_NAMES]);
    for (const { tool, args, url: route } of GET_CASES) {
      const body = expectSuccess(await call(tool, args));
      expect(body, `${tool} ${JSON.stringify(args)}`).to.deep.equal((await app.inject({ url: route })).json());
    }
  });

  it("verifies a pool's attestation end to end: get_attestation, then the library and verify_attestation", async function () {
    const attester = expectSuccess(await call("get_attester"));
    expect(attester.attester).to.equal(TEST_ATTESTER);
    const attestation = expectSuccess(await call("get_attestation", { pool: WETH }));
    expect(verifyAttestation({ attestation: attestation as never, address: TEST_ATTESTER }).valid).to.equal(true);
    expect(expectSuccess(await call("verify_attestation", { attestation }))).to.include({ valid: true });
    const tampered = { ...attestation, expiry: (attestation.expiry as number) + 86_400 };
    expect(expectSuccess(await call("verify_attestation", { attestation: tampered }))).to.include({ valid: false });
  });

  it("answers bad input as an isError result with the API's code", async function () {
    expectToolError(await call("get_attestation", { pool: "nope" }), "INVALID_POOL_ID", "pool");
    expectToolError(await call("get_volume", { days: 0 }), "INVALID_PARAMETER", "days");
  });

  it("answers 20 concurrent tool calls, all successfully", async function () {
    const calls = Array.from({ length: 20 }, (_, i) => GET_CASES[i % GET_CASES.length]);
    const results = await Promise.all(calls.map(({ tool, args }) => call(tool, args)));
    for (const [i, result] of results.entries()) {
      const { tool, url: route } = calls[i];
      expect(expectSuccess(result), tool).to.deep.equal((await app.inject({ url: route })).json());
    }
  });

  it("answers each POST on its own (stateless): no session id, a plain JSON response", async function () {
    const res = await post(`${url}/mcp`, INITIALIZE);
    expect(res.status).to.equal(200);
    expect(res.headers["content-type"]).to.match(/^application\/json/);
    expect(res.headers["mcp-session-id"]).to.equal(undefined);
    const body = JSON.parse(res.body);
    expect(body.result.serverInfo.name).to.equal("attestation-service");
    // A tools/call straight away, with no initialize on this "connection": stateless.
    const list = JSON.parse((await post(`${url}/mcp`, '{"jsonrpc":"2.0","id":2,"method":"tools/list"}')).body);
    expect(list.result.tools).to.have.length(TOOL_NAMES.length);
  });

  it("advertises no listChanged in initialize (stateless: no stream a list_changed notification could reach)", async function () {
    const res = await post(`${url}/mcp`, INITIALIZE);
    const { capabilities } = JSON.parse(res.body).result;
    expect(capabilities).to.deep.equal({ tools: {}, resources: {}, prompts: {}, completions: {} });
    expect(res.body).to.not.include("listChanged");
    // The SDK's client reads the same.
    expect(client.getServerCapabilities()).to.deep.equal({ tools: {}, resources: {}, prompts: {}, completions: {} });
  });

  describe("one JSON-RPC message per POST", function () {
    const BATCH_REFUSED = {
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message: "Invalid Request: JSON-RPC batches are not supported; send one message per POST.",
      },
    };
    let counted: FastifyInstance;
    let countedUrl: string;
    /** How often the readers asked for the time: every tool that reads the store asks at least once. */
    let clockReads = 0;

    before(async function () {
      counted = await buildMcpApp(store, { now: () => (clockReads++, MCP_NOW) });
      countedUrl = await counted.listen({ port: 0, host: "127.0.0.1" });
    });
    after(async function () {
      await counted?.close();
    });

    const getVolume = (id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "get_volume", arguments: { days: 365 } },
    });

    it("refuses a batch of 100 get_volume (365 days) with -32600 and HTTP 400, before any tool runs", async function () {
      // The spy works: one call on its own reads the clock.
      const one = await post(`${countedUrl}/mcp`, JSON.stringify(getVolume(1)));
      expect(one.status).to.equal(200);
      expect(JSON.parse(one.body).result.isError ?? false).to.equal(false);
      expect(clockReads).to.be.greaterThan(0);

      clockReads = 0;
      const batch = JSON.stringify(Array.from({ length: 100 }, (_, i) => getVolume(i + 1)));
      const res = await post(`${countedUrl}/mcp`, batch);
      expect(res.status).to.equal(400);
      expect(res.headers["content-type"]).to.match(/^application\/json/);
      expect(JSON.parse(res.body)).to.deep.equal(BATCH_REFUSED);
      expect(clockReads, "no tool ran").to.equal(0);
      expect(res.body.length).to.be.lessThan(200);
    });

    it("refuses any batch, even of one message or none, and a batched initialize", async function () {
      for (const body of ["[]", JSON.stringify([getVolume(1)]), `[${INITIALIZE}]`]) {
        const res = await post(`${countedUrl}/mcp`, body);
        expect(res.status, body.slice(0, 40)).to.equal(400);
        expect(JSON.parse(res.body), body.slice(0, 40)).to.deep.equal(BATCH_REFUSED);
      }
      expect(clockReads, "no tool ran").to.equal(0);
    });

    it("answers tools/call and prompts/get with params of the wrong type with -32602 (invalid params), naming what to fix", async function () {
      const cases: [unknown, RegExp][] = [
        [{ name: "get_pool", arguments: "eip155:1:0xabc" }, /params\.arguments must be an object/],
        [{ name: "get_pool", arguments: ["eip155:1:0xabc"] }, /params\.arguments must be an object/],
        [{ name: 7, arguments: {} }, /params\.name: a string/],
        ["get_pool", /needs params: an object/],
      ];
      for (const method of ["tools/call", "prompts/get"]) {
        for (const [params, message] of cases) {
          const body = JSON.stringify({ jsonrpc: "2.0", id: 42, method, params });
          const res = await post(`${url}/mcp`, body);
          const answer = JSON.parse(res.body);
          expect(answer, body).to.deep.include({ jsonrpc: "2.0", id: 42 });
          expect(answer.error.code, body).to.equal(-32602);
          expect(answer.error.message, body).to.match(message);
        }
      }
    });

    it("answers a body that is not JSON with a JSON-RPC parse error (-32700, id null), not the API's error body", async function () {
      for (const body of ["{not json", '{"jsonrpc":"2.0","id":1,', "", "\u0000"]) {
        const res = await post(`${url}/mcp`, body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.headers["content-type"]).to.match(/^application\/json/);
        const answer = JSON.parse(res.body);
        expect(answer, JSON.stringify(body)).to.deep.include({ jsonrpc: "2.0", id: null });
        expect(answer.error.code, JSON.stringify(body)).to.equal(-32700);
        expect(answer.error.message).to.match(/^Parse error/);
      }
      // The API's routes keep their own error body.
      const api = await counted.inject({
        method: "POST",
        url: "/api/v1/verify",
        headers: { "content-type": "application/json" },
        payload: "{not json",
      });
      expect(api.statusCode).to.equal(400);
      expect(api.json().error.code).to.equal("INVALID_JSON");
    });
  });

  describe("origin checks (DNS rebinding)", function () {
    it("refuses a browser Origin other than the service's own with 403, and accepts its own", async function () {
      for (const origin of ["http://evil.example", "http://localhost:1", "null"]) {
        const res = await post(`${url}/mcp`, INITIALIZE, { origin });
        expect(res.status, origin).to.equal(403);
        const body = JSON.parse(res.body);
        expect(body).to.include({ jsonrpc: "2.0", id: null });
        expect(body.error.message).to.match(/^Forbidden: Origin/);
      }
      expect((await post(`${url}/mcp`, INITIALIZE, { origin: app.publicOrigin() })).status).to.equal(200);
      expect(app.publicOrigin()).to.equal(url);
    });

    it("refuses a Host that is not a loopback name while the service listens on loopback", async function () {
      const port = new URL(url).port;
      for (const host of [`evil.example:${port}`, `127.0.0.1.nip.io:${port}`, "bad host"]) {
        const res = await post(`${url}/mcp`, INITIALIZE, { host });
        expect(res.status, host).to.equal(403);
        expect(JSON.parse(res.body).error.message).to.match(/^Forbidden: Host/);
      }
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
        expect((await post(`${url}/mcp`, INITIALIZE, { host })).status, host).to.equal(200);
      }
    });
  });

  it("answers GET and DELETE with 405 and a JSON-RPC error, as the SDK's stateless server does", async function () {
    for (const method of ["GET", "DELETE"]) {
      const res = await raw(`${url}/mcp`, { method, headers: { accept: ACCEPT } });
      expect(res.status, method).to.equal(405);
      expect(res.headers.allow).to.equal("POST");
      expect(JSON.parse(res.body)).to.deep.include({ jsonrpc: "2.0", id: null });
      expect(JSON.parse(res.body).error.code).to.equal(-32000);
    }
  });

  it("applies the API's body limit", async function () {
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad: "x".repeat(70_000) } });
    const res = await post(`${url}/mcp`, big);
    expect(res.status).to.equal(413);
    expect(JSON.parse(res.body).error.code).to.equal("BODY_TOO_LARGE");
  });

  describe("under the API's rate limits", function () {
    let limited: FastifyInstance;
    let limitedUrl: string;
    before(async function () {
      limited = await buildMcpApp(store, { env: { RATE_LIMIT_MAX: "4", RATE_LIMIT_VERIFY_MAX: "1" } });
      limitedUrl = await limited.listen({ port: 0, host: "127.0.0.1" });
    });
    after(async function () {
      await limited?.close();
    });

    it("counts verify_attestation calls against POST /verify's stricter limit, and every POST against the API's", async function () {
      const attestation = (await app.inject({ url: `/api/v1/pool/${WETH}` })).json();
      const verify = (id: number) =>
        JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "verify_attestation", arguments: { attestation } },
        });
      const first = await post(`${limitedUrl}/mcp`, verify(1));
      expect(first.status).to.equal(200);
      expect(JSON.parse(first.body).result.structuredContent.valid).to.equal(true);
      const second = await post(`${limitedUrl}/mcp`, verify(2));
      expect(second.status).to.equal(429);
      expect(JSON.parse(second.body).error.code).to.equal("RATE_LIMITED");
      // Other tools still answer until the API's limit (4 requests in the window, the two above included).
      expect((await post(`${limitedUrl}/mcp`, INITIALIZE)).status).to.equal(200);
      expect((await post(`${limitedUrl}/mcp`, INITIALIZE)).status).to.equal(200);
      const over = await post(`${limitedUrl}/mcp`, INITIALIZE);
      expect(over.status).to.equal(429);
      expect(JSON.parse(over.body).error.code).to.equal("RATE_LIMITED");
    });
  });
});
