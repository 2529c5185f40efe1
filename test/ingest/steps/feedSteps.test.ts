import { expect } from "chai";
import type { PoolConfig } from "../../../src/model/poolConfig";
import { readChartStep } from "../../../src/ingest/steps/defillamaChart";
import { readCoinPricesStep } from "../../../src/ingest/steps/defillamaCoins";
import { readDexVolumesStep } from "../../../src/ingest/steps/defillamaDexVolumes";
import { readYieldsStep } from "../../../src/ingest/steps/defillamaYields";
import { readMerklStep } from "../../../src/ingest/steps/merkl";
import type { Store } from "../../../src/storage/openStore";
import { fixture, startRouteServer, type RouteServer } from "../../helpers/ingest/routeServer";
import { openTempStore, type TempStore } from "../../helpers/storage/tempStore";

const fast = { timeoutMs: 2000, retries: 0, backoffMs: 5 };
/** 2025-11-22 12:00 UTC: every day of the recorded-shape fixture (2025-11-19 … 21) is complete. */
const READ_AT = Date.UTC(2025, 10, 22, 12) / 1000;

describe("feed steps on real response shapes", () => {
  let server: RouteServer;
  /** An empty store, for the steps that read one (nothing stored from the feeds yet). */
  let scratch: Store;
  let scratchTemp: TempStore;
  beforeEach(async () => {
    scratchTemp = await openTempStore({ prefix: "feed-steps-scratch-" });
    scratch = scratchTemp.store;
  });
  afterEach(async () => {
    await scratchTemp.cleanup();
  });
  beforeEach(async () => {
    server = await startRouteServer({
      "/overview/dexs/ethereum": () => ({ body: fixture("defillama-dexs-ethereum.json") }),
      "/pools": () => ({ body: fixture("defillama-pools.json") }),
    });
  });
  afterEach(() => server.close());

  describe("readDexVolumesStep", () => {
    it("keeps a chain whose overview holds a negative and a missing value, and counts the two dropped", async () => {
      const { report, data } = await readDexVolumesStep({
        chainIds: [1],
        apiUrl: server.url,
        feedOptions: fast,
        days: 30,
        now: () => READ_AT,
      });
      expect(report).to.deep.equal({ ok: true, rows: 7, dropped: 2 });
      expect(data.filter((r) => r.protocol === "Curve DEX").map((r) => r.day)).to.deep.equal(["2025-11-19"]);
    });

    it("names a tracked chain DefiLlama has no name for in the report, never skipping it in silence", async () => {
      const { report, data } = await readDexVolumesStep({
        chainIds: [1, 999],
        apiUrl: server.url,
        feedOptions: fast,
        days: 30,
        now: () => READ_AT,
      });
      expect(report).to.include({ ok: false, rows: 7 });
      expect(report!.error).to.equal("chain 999: no DefiLlama chain name known");
      expect(data).to.have.length(7);
    });
  });

  describe("readMerklStep", () => {
    it("reports partial, never ok, when the page bound stops the read, and keeps what it read", async () => {
      const all = fixture("merkl-opportunities.json") as unknown[];
      server.routes.set("/v4/opportunities", ({ query }) => {
        const page = Number(query.get("page"));
        return { body: page < 50 ? Array.from({ length: 100 }, () => all[0]) : [] };
      });
      const { report, data } = await readMerklStep({
        db: scratch.db,
        pools: [],
        now: () => READ_AT,
        chainIds: [1],
        merklUrl: server.url,
        feedOptions: fast,
        maxPages: 3,
      });
      expect(data).to.have.length(300);
      // The one campaign repeated identically on every opportunity is kept once.
      expect(report).to.deep.equal({
        ok: false,
        rows: 1,
        error: "partial: stopped after 300 opportunities at the page bound",
      });
    });
  });

  describe("readYieldsStep", () => {
    it("matches a pool whose configured DefiLlama uuid is in another letter case", async () => {
      const configured = "A3F1C2D4-5B6E-4F70-8A91-B2C3D4E5F601";
      const pools = [{ chainId: 1, address: "0x1", defillamaId: configured }] as unknown as PoolConfig[];
      const { report, data } = await readYieldsStep({
        db: scratch.db,
        pools,
        yieldsUrl: server.url,
        feedOptions: fast,
      });
      expect(report).to.deep.equal({ ok: true, rows: 1 });
      expect(data!.get(configured)).to.include({ pool: "a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601", tvlUsd: 41235877 });
    });
  });

  describe("readCoinPricesStep", () => {
    const USDC = "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
    const WETH = "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2";
    let temp: TempStore;
    let store: Store;
    beforeEach(async () => {
      temp = await openTempStore({ prefix: "feed-steps-" });
      store = temp.store;
      // As the real API answers: every coin carries its confidence, 0-1; WETH's here is low.
      server.routes.set("/prices/current/*", () => ({
        body: {
          coins: {
            [`ethereum:${USDC}`]: { decimals: 6, symbol: "USDC", price: 0.9998, timestamp: READ_AT, confidence: 0.99 },
            [`ethereum:${WETH}`]: { decimals: 18, symbol: "WETH", price: 31.87, timestamp: READ_AT, confidence: 0.5 },
          },
        },
      }));
    });
    afterEach(async () => {
      await temp.cleanup();
    });

    it("readChartStep asks DefiLlama for a pool's chart by its uuid in lower case, as DefiLlama spells it", async () => {
      server.routes.set("/chart/a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601", () => ({
        body: fixture("defillama-chart.json"),
      }));
      const address = "0x0000000000000000000000000000000000000001";
      const pools: PoolConfig[] = [
        {
          chainId: 1,
          address,
          symbol: "X",
          kind: "amm",
          protocol: "uniswap-v2",
          defillamaId: "A3F1C2D4-5B6E-4F70-8A91-B2C3D4E5F601",
        },
      ];
      const { report, data } = await readChartStep({
        db: store.db,
        pools,
        yieldsUrl: server.url,
        feedOptions: fast,
        backfillBelowDays: 14,
      });
      expect(report).to.deep.equal({ ok: true, rows: 1 });
      expect([...data.values()][0]).to.have.length(3);
    });

    it("does not use a price whose confidence is below 0.9, counts it, and names an unmapped chain", async () => {
      const { report, data } = await readCoinPricesStep({
        db: store.db,
        coinsUrl: server.url,
        tokens: [
          { chainId: 1, token: USDC.toUpperCase().replace("0X", "0x") },
          { chainId: 1, token: WETH },
          { chainId: 999, token: WETH },
        ],
        feedOptions: fast,
        log: () => undefined,
      });
      expect([...data!.quotes.keys()]).to.deep.equal([`1:${USDC}`]);
      expect(data!.rows.map((r) => r.token)).to.deep.equal([USDC]);
      expect(report).to.deep.equal({
        ok: false,
        rows: 1,
        dropped: 1,
        error: "chain 999: no DefiLlama chain name known",
      });
    });
  });
});
