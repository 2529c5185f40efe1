import { expect } from "chai";
import { surface } from "../../../src/read/getRoadmap";
import { declaredResponseSchema } from "../../../src/service/declaredRoutes";

/** The route answers its declaration's shape. */
const RoadmapResponseSchema = declaredResponseSchema(surface);
import { expectSchema, useMarketApp } from "../../helpers/read/marketApp";
import { MARKET_NOW, M } from "../../helpers/read/seedMarket";
import { scoreKeys } from "../../helpers/read/walk";

describe("roadmap route (real SQLite)", function () {
  const api = useMarketApp();

  describe("GET /api/v1/roadmap", function () {
    it("answers the items of the data file with counts from the store", async function () {
      const res = await api.get("/api/v1/roadmap");
      expect(res.statusCode).to.equal(200);
      const body = res.json();
      expectSchema(RoadmapResponseSchema, body);
      expect(body.items.find((item: { id: string }) => item.id === "grading").counts).to.deep.equal({
        claimsPending: 3,
        claimsGraded: 0,
      });
      expect(scoreKeys(body)).to.deep.equal([]);
    });

    it("recomputes the counts after a write (once the cache is invalidated, as the keyed write does)", async function () {
      const count = async () =>
        (await api.get("/api/v1/roadmap")).json().items.find((item: { id: string }) => item.id === "liquidity-requests")
          .counts.liquidityRequestsReceived;
      expect(await count()).to.equal(1);
      await api.store.db
        .insertInto("liquidity_requests")
        .values({
          id: "req-2",
          chain_id: 1,
          pool_address: M.b,
          asset_address: null,
          amount_usd: 1,
          horizon_days: 7,
          note: null,
          api_key_id: "k",
          created_at: MARKET_NOW,
        })
        .execute();
      api.app.responseCache.invalidate();
      expect(await count()).to.equal(2);
    });
  });
});
