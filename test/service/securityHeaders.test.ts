import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { buildTestApp, useSeededApp } from "../helpers/service/app";

/** Every JSON answer carries `X-Content-Type-Options: nosniff` (pages and assets already did). */
describe("X-Content-Type-Options: nosniff on JSON answers", function () {
  const api = useSeededApp();

  const cases: [string, () => Promise<{ statusCode: number; headers: Record<string, unknown> }>, number][] = [
    ["GET /api/v1/health", () => api.get("/api/v1/health"), 200],
    ["GET /api/v1/pools", () => api.get("/api/v1/pools"), 200],
    ["GET /api/v1/attester", () => api.get("/api/v1/attester"), 200],
    ["GET /api/v1/openapi.json", () => api.get("/api/v1/openapi.json"), 200],
    ["a 404 (no such route)", () => api.get("/api/v1/nope"), 404],
    ["a 400 (malformed pool id)", () => api.get("/api/v1/pool/0xnot-a-pool"), 400],
    ["a router error (bad percent-encoding)", () => api.get("/api/v1/pool/%E0%A4%A"), 400],
    ["a 400 (POST /verify, not JSON)", () => api.postJson("/api/v1/verify", "{nope"), 400],
    ["a 415 (POST /verify, wrong type)", () => api.postJson("/api/v1/verify", "x", "text/plain"), 415],
    [
      "POST /mcp (answered by the MCP transport, outside Fastify's reply)",
      () =>
        api.app.inject({
          method: "POST",
          url: "/mcp",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          payload: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
        }),
      200,
    ],
  ];
  for (const [name, send, status] of cases) {
    it(name, async function () {
      const res = await send();
      expect(res.statusCode).to.equal(status);
      expect(res.headers["x-content-type-options"]).to.equal("nosniff");
    });
  }

  describe("a 429", function () {
    let limited: FastifyInstance;
    before(async function () {
      limited = await buildTestApp(api.store, { RATE_LIMIT_MAX: "1" });
    });
    after(async function () {
      await limited.close();
    });
    it("carries it too", async function () {
      await limited.inject({ url: "/api/v1/health" });
      const res = await limited.inject({ url: "/api/v1/health" });
      expect(res.statusCode).to.equal(429);
      expect(res.headers["x-content-type-options"]).to.equal("nosniff");
    });
  });

  it("pages keep theirs (one header, not two)", async function () {
    const res = await api.get("/app/");
    expect(res.headers["x-content-type-options"]).to.equal("nosniff");
  });
});
