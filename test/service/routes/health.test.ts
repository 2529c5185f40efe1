import { expect } from "chai";
import { buildTestApp, openTempStore, useSeededApp } from "../../helpers/service/app";

describe("health route (real SQLite)", function () {
  const api = useSeededApp();
  const { get } = api;

  describe("GET /api/v1/health", function () {
    it("reports the store's counts", async function () {
      const res = await get("/api/v1/health");
      expect(res.statusCode).to.equal(200);
      expect(res.json()).to.deep.equal({ status: "ok", pools: 6, attestations: 3, lastIngest: null, sources: {} });
    });
  });

  describe("store failure", function () {
    it("answers health with 503 STORE_UNAVAILABLE and reads of a closed store with a 500 that hides internals", async function () {
      const temp = await openTempStore();
      const broken = await buildTestApp(temp.store, { API_CACHE_TTL_MS: "0" });
      await temp.cleanup();
      try {
        const health = await broken.inject({ method: "GET", url: "/api/v1/health" });
        expect(health.statusCode).to.equal(503);
        expect(health.json()).to.deep.equal({
          error: { code: "STORE_UNAVAILABLE", message: "The store does not answer; retry in a few seconds." },
        });
        expect(health.headers["retry-after"]).to.equal("5");
        const pools = await broken.inject({ method: "GET", url: "/api/v1/pools" });
        expect(pools.statusCode).to.equal(500);
        expect(pools.json()).to.deep.equal({ error: { code: "INTERNAL_ERROR", message: "Internal server error." } });
      } finally {
        await broken.close();
      }
    });
  });
});
