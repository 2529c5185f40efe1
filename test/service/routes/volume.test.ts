import { expect } from "chai";
import { surface as getVolumeSurface } from "../../../src/read/getVolume";
import { declaredResponseSchema } from "../../../src/service/declaredRoutes";
import { expectError, expectSchema, useMarketApp } from "../../helpers/read/marketApp";
import { IDS, M } from "../../helpers/read/seedMarket";
import { scoreKeys } from "../../helpers/read/walk";

/** The route answers its declaration's shape. */
const VolumeResponseSchema = declaredResponseSchema(getVolumeSurface);

describe("volume route (real SQLite)", function () {
  const api = useMarketApp();

  describe("GET /api/v1/volume", function () {
    it("answers the documented shape, 30 days by default", async function () {
      const res = await api.get("/api/v1/volume");
      expect(res.statusCode).to.equal(200);
      expect(res.headers["content-type"]).to.match(/^application\/json/);
      const body = res.json();
      expectSchema(VolumeResponseSchema, body);
      expect(body.days).to.have.length(30);
      expect(body.heatmap.dates).to.have.length(30);
      expect(scoreKeys(body)).to.deep.equal([]);
    });

    it("holds the stale pool out of every total and lists it beside them", async function () {
      const body = (await api.get("/api/v1/volume?days=3")).json();
      expect(body.byChain.find((row: { chainId: number }) => row.chainId === 8453).volumeUsd).to.equal(6);
      expect(body.byTurnover.map((row: { id: string }) => row.id)).to.deep.equal([IDS.a, IDS.b]);
      expect(body.stale.map((entry: { id: string; field: string }) => `${entry.id} ${entry.field}`)).to.include(
        `${IDS.c} volume24hUsd`,
      );
    });

    for (const days of ["0", "366", "abc", "1.5"]) {
      it(`refuses days=${days} with 400 INVALID_REQUEST naming the field`, async function () {
        expectError(await api.get(`/api/v1/volume?days=${days}`), 400, "INVALID_REQUEST", "days");
      });
    }

    it("caps byTurnover at turnoverLimit (1–1000) and states the total", async function () {
      const body = (await api.get("/api/v1/volume?days=3&turnoverLimit=1")).json();
      expect(body.byTurnover).to.have.length(1);
      expect(body.byTurnoverTotal).to.equal(2);
      expectError(await api.get("/api/v1/volume?turnoverLimit=1001"), 400, "INVALID_REQUEST", "turnoverLimit");
    });

    it("is served from the response cache until a write invalidates it", async function () {
      const before = (await api.get("/api/v1/volume?days=3")).json();
      await api.store.db
        .updateTable("pool_volume_daily")
        .set({ volume_usd: 400 })
        .where("address", "=", M.a)
        .where("day", "=", "2026-01-14")
        .execute();
      expect((await api.get("/api/v1/volume?days=3")).json()).to.deep.equal(before);
      api.app.responseCache.invalidate();
      const after = (await api.get("/api/v1/volume?days=3")).json();
      expect(after.byChain[0].volumeUsd).to.equal(before.byChain[0].volumeUsd + 100);
    });
  });
});

describe("volume route over an empty store", function () {
  const api = useMarketApp({ seeded: false });

  it("says there is no data: nulls and empty lists, never zeros", async function () {
    const body = (await api.get("/api/v1/volume?days=2")).json();
    expectSchema(VolumeResponseSchema, body);
    expect(body.days.map((day: { volumeUsd: unknown }) => day.volumeUsd)).to.deep.equal([null, null]);
    expect([body.byChain, body.byVenue, body.byTurnover, body.stale, body.heatmap.venues]).to.deep.equal([
      [],
      [],
      [],
      [],
      [],
    ]);
  });
});

describe("OpenAPI document (market routes)", function () {
  const api = useMarketApp({ seeded: false });

  it("names every market route with its query, its 200 schema and its error responses", async function () {
    const doc = (await api.get("/api/v1/openapi.json")).json();
    const market = ["volume", "liquidity-map", "compare", "roadmap", "launch", "activity"].map((r) => `/api/v1/${r}`);
    expect(Object.keys(doc.paths)).to.include.members(market);
    for (const path of market) {
      const get = doc.paths[path].get;
      expect(get.tags, path).to.deep.equal(["market"]);
      expect(get.responses["200"].content["application/json"].schema, path).to.be.an("object");
      expect(get.responses["429"].content["application/json"].schema).to.deep.equal({
        $ref: "#/components/schemas/Error",
      });
    }
    const params = (path: string) => doc.paths[path].get.parameters.map((p: { name: string }) => p.name);
    expect(params("/api/v1/volume")).to.deep.equal(["days", "turnoverLimit"]);
    expect(params("/api/v1/compare")).to.deep.equal(["pools"]);
    expect(params("/api/v1/activity")).to.deep.equal(["limit", "cursor", "kind"]);
    expect(doc.paths["/api/v1/compare"].get.responses).to.include.keys("400", "404", "409");
  });
});
