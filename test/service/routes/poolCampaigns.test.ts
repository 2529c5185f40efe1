import { expect } from "chai";
import { surface } from "../../../src/read/getPoolCampaigns";
import { declaredResponseSchema } from "../../../src/service/declaredRoutes";
import { expectSchema, useMarketApp } from "../../helpers/read/marketApp";
import { IDS } from "../../helpers/read/seedMarket";

const PoolCampaignsResponseSchema = declaredResponseSchema(surface);

describe("pool campaigns route (real SQLite)", function () {
  const api = useMarketApp();

  it("answers a pool's two campaigns by identifier", async function () {
    const res = await api.get(`/api/v1/pool/${IDS.b}/campaigns`);
    expect(res.statusCode).to.equal(200);
    const body = res.json();
    expectSchema(PoolCampaignsResponseSchema, body);
    expect(body.pool).to.equal(IDS.b);
    expect(body.campaigns.map((c: { id: string }) => c.id).sort()).to.deep.equal(["cb1", "cb2"]);
  });

  it("answers 404 POOL_NOT_FOUND for an unknown pool and 400 for a malformed id", async function () {
    const missing = await api.get(`/api/v1/pool/eip155:1:0x${"1".repeat(40)}/campaigns`);
    expect(missing.statusCode).to.equal(404);
    expect(missing.json().error.code).to.equal("POOL_NOT_FOUND");
    expect((await api.get("/api/v1/pool/nope/campaigns")).statusCode).to.equal(400);
  });
});
