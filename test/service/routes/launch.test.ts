import { expect } from "chai";
import { surface } from "../../../src/read/getLaunchPosition";
import { declaredResponseSchema } from "../../../src/service/declaredRoutes";

/** The route answers its declaration's shape. */
const LaunchResponseSchema = declaredResponseSchema(surface);
import { expectSchema, useMarketApp } from "../../helpers/read/marketApp";
import { MARKET_NOW } from "../../helpers/read/seedMarket";
import { scoreKeys, timeLike } from "../../helpers/read/walk";

describe("launch route (real SQLite)", function () {
  const api = useMarketApp();

  describe("GET /api/v1/launch", function () {
    it("answers the gates in dependency order and the one holding", async function () {
      const res = await api.get("/api/v1/launch");
      expect(res.statusCode).to.equal(200);
      const body = res.json();
      expectSchema(LaunchResponseSchema, body);
      expect(body.holding).to.equal("reserves-observed");
      expect(body.gates.find((gate: { id: string }) => gate.id === "track-record")).to.include({
        status: "unmeasured",
        measured: null,
      });
      expect(scoreKeys(body)).to.deep.equal([]);
    });

    it("carries no date or time anywhere in the payload (walked key by key and value by value)", async function () {
      const body = (await api.get("/api/v1/launch")).json();
      expect(timeLike(body, MARKET_NOW)).to.deep.equal([]);
      expect(JSON.stringify(body)).to.not.match(/"asOf"|"observedAt"|"at"|"eta"|\d{4}-\d{2}-\d{2}/i);
    });
  });
});

describe("launch route over an empty store", function () {
  const api = useMarketApp({ seeded: false });

  it("answers unmeasured gates, not invented zeros of what it cannot measure", async function () {
    const body = (await api.get("/api/v1/launch")).json();
    expectSchema(LaunchResponseSchema, body);
    expect(body.gates.find((gate: { id: string }) => gate.id === "exitable-liquidity")).to.include({
      status: "unmeasured",
      measured: null,
    });
  });
});
