import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import {
  DAY,
  NOW,
  POOLS,
  buildTestApp,
  insertAttestation,
  openTempStore,
  seed,
  useSeededApp,
} from "../helpers/service/app";

describe("app-wide behaviour (real SQLite)", function () {
  const api = useSeededApp();
  const { get } = api;

  describe("every route", function () {
    it("answers unknown routes with a JSON 404", async function () {
      const res = await get("/api/v1/nope");
      expect(res.statusCode).to.equal(404);
      expect(res.json().error.code).to.equal("ROUTE_NOT_FOUND");
    });

    it("opens CORS for reads", async function () {
      const res = await api.app.inject({
        method: "GET",
        url: "/api/v1/pools",
        headers: { origin: "https://example.org" },
      });
      expect(res.headers["access-control-allow-origin"]).to.equal("*");
    });

    it("sends no CORS header on the dapp, sign-in, MCP or the probes", async function () {
      for (const url of ["/app/pools", "/app/", "/auth/nonce", "/livez", "/readyz"]) {
        const res = await api.app.inject({ method: "GET", url, headers: { origin: "https://example.org" } });
        expect(res.headers["access-control-allow-origin"], url).to.equal(undefined);
      }
      const preflight = await api.app.inject({
        method: "OPTIONS",
        url: "/mcp",
        headers: { origin: "https://example.org", "access-control-request-method": "POST" },
      });
      expect(preflight.headers["access-control-allow-origin"]).to.equal(undefined);
    });
  });

  describe("rate limit", function () {
    let limited: FastifyInstance;
    before(async function () {
      limited = await buildTestApp(api.store, {
        RATE_LIMIT_MAX: "3",
        RATE_LIMIT_VERIFY_MAX: "2",
        RATE_LIMIT_WINDOW_S: "60",
      });
    });
    after(async function () {
      await limited.close();
    });

    it("answers 429 RATE_LIMITED once a client exceeds the configured limit", async function () {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++)
        codes.push((await limited.inject({ method: "GET", url: "/api/v1/pools" })).statusCode);
      expect(codes).to.deep.equal([200, 200, 200, 429]);
      const res = await limited.inject({ method: "GET", url: "/api/v1/attester" });
      expect(res.statusCode).to.equal(429);
      expect(res.json().error.code).to.equal("RATE_LIMITED");
    });

    it("keys the limit by client address", async function () {
      const other = await limited.inject({ method: "GET", url: "/api/v1/pools", remoteAddress: "10.0.0.2" });
      expect(other.statusCode).to.equal(200);
    });

    it("applies the stricter limit to POST /verify", async function () {
      const served = (await api.app.inject({ method: "GET", url: `/api/v1/pool/${POOLS.weth}` })).body;
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await limited.inject({
          method: "POST",
          url: "/api/v1/verify",
          payload: served,
          headers: { "content-type": "application/json" },
          remoteAddress: "10.0.0.3",
        });
        codes.push(res.statusCode);
      }
      expect(codes).to.deep.equal([200, 200, 429]);
    });
  });

  describe("response cache", function () {
    it("serves a newly issued attestation after invalidate(), and after the TTL without it", async function () {
      const temp = await openTempStore();
      try {
        await seed(temp.store);
        const cachedApp = await buildTestApp(temp.store, { API_CACHE_TTL_MS: "600000" });
        const uncachedApp = await buildTestApp(temp.store, { API_CACHE_TTL_MS: "0" });
        const url = `/api/v1/pool/1:${POOLS.weth}`;
        expect((await cachedApp.inject({ method: "GET", url })).json().issuedAt).to.equal(NOW - 2 * DAY);
        await insertAttestation(temp.store, {
          chainId: 1,
          address: POOLS.weth,
          issuedAt: NOW - 60,
          expiry: NOW + DAY,
          horizonDays: 7,
          confidenceHundredths: 90,
        });
        expect((await uncachedApp.inject({ method: "GET", url })).json().issuedAt).to.equal(NOW - 60);
        expect((await cachedApp.inject({ method: "GET", url })).json().issuedAt).to.equal(NOW - 2 * DAY);
        cachedApp.responseCache.invalidate();
        const fresh = (await cachedApp.inject({ method: "GET", url })).json();
        expect(fresh).to.include({ issuedAt: NOW - 60, confidence: 0.9, horizon: 7 });
        await cachedApp.close();
        await uncachedApp.close();
      } finally {
        await temp.cleanup();
      }
    });
  });
});
