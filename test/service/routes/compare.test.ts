import { expect } from "chai";
import { surface as comparePoolsSurface } from "../../../src/read/comparePools";
import { declaredResponseSchema } from "../../../src/service/declaredRoutes";
import { expectError, expectSchema, useMarketApp } from "../../helpers/read/marketApp";
import { IDS, M } from "../../helpers/read/seedMarket";
import { scoreKeys } from "../../helpers/read/walk";

/** The route answers its declaration's shape. */
const CompareResponseSchema = declaredResponseSchema(comparePoolsSurface);

describe("compare route (real SQLite)", function () {
  const api = useMarketApp();
  const compare = (pools: string[]) => api.get(`/api/v1/compare?pools=${pools.map(encodeURIComponent).join(",")}`);

  before(async function () {
    // The same address on two chains: a bare address of it is ambiguous.
    for (const chainId of [1, 10]) {
      await api.store.db
        .insertInto("pools")
        .values({
          chain_id: chainId,
          address: "0x7000000000000000000000000000000000000007",
          kind: "amm",
          symbol: "S",
          protocol: "p",
          created_at: 0,
          updated_at: 0,
        })
        .execute();
    }
  });

  describe("GET /api/v1/compare", function () {
    it("answers the pools in the order asked, with largest over fresh values and no rank", async function () {
      const res = await compare([IDS.b, `42161:${M.h}`, M.a]);
      expect(res.statusCode).to.equal(200);
      const body = res.json();
      expectSchema(CompareResponseSchema, body);
      expect(body.pools.map((pool: { id: string }) => pool.id)).to.deep.equal([IDS.b, IDS.h, IDS.a]);
      expect(body.largest).to.deep.equal({
        depthUsd: [IDS.b],
        volume24hUsd: [IDS.a],
        yieldPct: [IDS.a], // b's 7 % is stale
        exitabilityUsd: [],
      });
      expect(scoreKeys(body)).to.deep.equal([]);
    });

    it("takes 4 pools and refuses a 5th with 400 TOO_MANY_POOLS", async function () {
      expect((await compare([IDS.a, IDS.b, IDS.c, IDS.d])).statusCode).to.equal(200);
      expectError(await compare([IDS.a, IDS.b, IDS.c, IDS.d, IDS.e]), 400, "TOO_MANY_POOLS", "pools");
    });

    it("refuses a repeated pool (in any id shape) with 400 REPEATED_POOL", async function () {
      expectError(await compare([IDS.a, IDS.a]), 400, "REPEATED_POOL", "pools");
      expectError(
        await compare([`1:${M.a}`, `EIP155:1:${M.a.toUpperCase().replace("0X", "0x")}`]),
        400,
        "REPEATED_POOL",
      );
      const res = await compare([M.a, IDS.a]);
      expectError(res, 400, "REPEATED_POOL");
      expect(res.json().error.pool).to.equal(IDS.a);
    });

    it("answers 400 for a malformed id or list, 404 for an unknown pool, 409 for an ambiguous one", async function () {
      expectError(await compare([IDS.a, "nope"]), 400, "INVALID_POOL_ID", "pools");
      expectError(await api.get(`/api/v1/compare?pools=${IDS.a},,${IDS.b}`), 400, "INVALID_POOL_ID", "pools");
      expectError(await api.get("/api/v1/compare"), 400, "INVALID_REQUEST", "pools");
      expectError(await api.get("/api/v1/compare?pools="), 400, "INVALID_REQUEST", "pools");
      expectError(await compare([`10:${M.a}`]), 404, "POOL_NOT_FOUND");
      const ambiguous = await compare(["0x7000000000000000000000000000000000000007"]);
      expectError(ambiguous, 409, "AMBIGUOUS_POOL");
      expect(ambiguous.json().error.candidates).to.deep.equal([
        "eip155:1:0x7000000000000000000000000000000000000007",
        "eip155:10:0x7000000000000000000000000000000000000007",
      ]);
    });
  });
});
