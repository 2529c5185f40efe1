import { expect } from "chai";
import { surface as getLiquidityMapSurface } from "../../../src/read/getLiquidityMap";
import { declaredResponseSchema } from "../../../src/service/declaredRoutes";
import { expectSchema, useMarketApp } from "../../helpers/read/marketApp";
import { IDS } from "../../helpers/read/seedMarket";
import { scoreKeys } from "../../helpers/read/walk";

/** The route answers its declaration's shape. */
const LiquidityMapResponseSchema = declaredResponseSchema(getLiquidityMapSurface);

describe("liquidity-map route (real SQLite)", function () {
  const api = useMarketApp();

  describe("GET /api/v1/liquidity-map", function () {
    it("answers the documented shape with no score or rank", async function () {
      const res = await api.get("/api/v1/liquidity-map");
      expect(res.statusCode).to.equal(200);
      const body = res.json();
      expectSchema(LiquidityMapResponseSchema, body);
      expect(scoreKeys(body)).to.deep.equal([]);
    });

    it("sums fresh depths only and places a pool with two campaigns once in the calendar", async function () {
      const body = (await api.get("/api/v1/liquidity-map")).json();
      expect(body.chains.find((chain: { chainId: number }) => chain.chainId === 8453).totalDepthUsd).to.equal(300_000);
      const ids: string[] = body.expiryCalendar.flatMap((date: { pools: { id: string }[] }) =>
        date.pools.map((pool) => pool.id),
      );
      expect(ids.filter((id) => id === IDS.b)).to.have.length(1);
      expect(body.expiryCalendar[0]).to.include({ date: "2026-02-01", depthUsd: 3_000_000 });
    });
  });
});

describe("liquidity-map route over an empty store", function () {
  const api = useMarketApp({ seeded: false });

  it("answers empty lists, not an invented total", async function () {
    const body = (await api.get("/api/v1/liquidity-map")).json();
    expectSchema(LiquidityMapResponseSchema, body);
    expect(body).to.deep.include({ chains: [], expiryCalendar: [], stale: [] });
  });
});
