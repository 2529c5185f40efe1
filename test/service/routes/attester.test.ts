import { expect } from "chai";
import { TEST_ATTESTER, TEST_REGISTRY, buildTestApp, useSeededApp } from "../../helpers/service/app";

describe("attester route (real SQLite)", function () {
  const api = useSeededApp();
  const { get } = api;

  describe("GET /api/v1/attester", function () {
    it("returns the attester, the scheme and the registry", async function () {
      const res = await get("/api/v1/attester");
      expect(res.statusCode).to.equal(200);
      expect(res.json()).to.deep.equal({ attester: TEST_ATTESTER, scheme: "eip191-v1", registry: TEST_REGISTRY });
    });

    it("reports a null registry when none is configured", async function () {
      const bare = await buildTestApp(api.store, {}, { registry: null });
      try {
        expect((await bare.inject({ method: "GET", url: "/api/v1/attester" })).json().registry).to.equal(null);
      } finally {
        await bare.close();
      }
    });
  });
});
