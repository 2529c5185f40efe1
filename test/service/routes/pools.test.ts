import { expect } from "chai";
import { DAY, NOW, POOLS, buildTestApp, useSeededApp } from "../../helpers/service/app";

describe("pools route (real SQLite)", function () {
  const api = useSeededApp();
  const { get } = api;

  describe("GET /api/v1/pools", function () {
    it("lists every tracked pool with its qualified id and stale flag", async function () {
      const res = await get("/api/v1/pools");
      expect(res.statusCode).to.equal(200);
      const body = res.json();
      expect(body.pools).to.have.length(6);
      const weth = body.pools.find((p: { id: string }) => p.id === `eip155:1:${POOLS.weth.toLowerCase()}`);
      expect(weth).to.deep.equal({
        id: `eip155:1:${POOLS.weth.toLowerCase()}`,
        chainId: 1,
        address: POOLS.weth.toLowerCase(),
        symbol: "WETH-USDC",
        protocol: "uniswap-v2",
        kind: "amm",
        depthUsd: 1_000_000,
        observedAt: NOW - 60,
        stale: false,
        // The latest of its two attestations, not the older one.
        horizon: 30,
        confidence: 0.85,
        expiry: NOW + DAY,
        noAttestationReason: null,
      });
      const stale = body.pools.find((p: { id: string }) => p.id === `eip155:8453:${POOLS.stale}`);
      expect(stale.stale).to.equal(true);
      expect(stale.depthUsd).to.equal(777_000);
      const unseen = body.pools.find((p: { id: string }) => p.id === `eip155:1:${POOLS.unseen}`);
      expect(unseen).to.include({ depthUsd: null, observedAt: null, stale: true });
      // No attestation: null, not zero; an expired one keeps its figures (its expiry is in the past).
      const ausdc = body.pools.find((p: { id: string }) => p.id === `eip155:1:${POOLS.ausdc.toLowerCase()}`);
      expect(ausdc).to.include({ horizon: null, confidence: null, expiry: null });
      // Why not, from the pool's row: the same sentence GET /api/v1/pool/{pool} gives once the issuer has judged it.
      expect(ausdc.noAttestationReason).to.be.a("string");
      expect(unseen.noAttestationReason).to.equal(
        "its depth has not been observed yet; the next ingestion pass reads it.",
      );
      expect((await get(`/api/v1/pool/${POOLS.unseen}`)).json().error.reason).to.equal(unseen.noAttestationReason);
      const expired = body.pools.find((p: { id: string }) => p.id === `eip155:42161:${POOLS.shared}`);
      expect(expired.expiry).to.be.a("number").and.lessThan(NOW);
    });

    it("holds stale depths out of the total and publishes them beside it", async function () {
      const body = (await get("/api/v1/pools")).json();
      // Fresh: weth 1,000,000 + aUSDC 250,000 + shared 40,000 + 10,000. Stale: 777,000 (+ one never observed).
      expect(body.total).to.deep.equal({ depthUsd: 1_300_000, pools: 4 });
      expect(body.heldOut.depthUsd).to.equal(777_000);
      expect(body.heldOut.pools).to.have.members([`eip155:8453:${POOLS.stale}`, `eip155:1:${POOLS.unseen}`]);
      expect(body.freshnessWindowS).to.equal(3600);
    });

    it("applies the configured freshness window", async function () {
      const wide = await buildTestApp(api.store, { FRESHNESS_WINDOW_S: "86400" });
      try {
        const body = (await wide.inject({ method: "GET", url: "/api/v1/pools" })).json();
        expect(body.total.depthUsd).to.equal(2_077_000);
        expect(body.heldOut.pools).to.deep.equal([`eip155:1:${POOLS.unseen}`]);
      } finally {
        await wide.close();
      }
    });
  });
});
