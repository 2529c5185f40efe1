import { expect } from "chai";
import { runIngestionPass } from "../../src/ingest/runIngestionPass";
import { toUnits } from "../../src/model/pairMath";
import type { PoolConfig } from "../../src/model/poolConfig";
import type { Store } from "../../src/storage/openStore";
import { getDailyHistory } from "../../src/storage/poolDaily";
import { getPool } from "../../src/storage/pools";
import { getTokenPrices } from "../../src/storage/tokenPrices";
import { startLocalMarket, type LocalMarket } from "../helpers/ingest/localMarket";
import { startRouteServer, type RouteServer } from "../helpers/ingest/routeServer";
import { swapAt } from "../helpers/ingest/swaps";
import { openTempStore, type TempStore } from "../helpers/storage/tempStore";

const DAY = 86_400;
const HOUR = 3600;
const WINDOW = 3600;
const EPOCH = Date.UTC(2026, 10, 1) / 1000;

describe("prices from DefiLlama's coins API", function () {
  let market: LocalMarket;
  let pools: PoolConfig[];
  let coins: RouteServer;
  let temp: TempStore;
  let store: Store;
  /** What the coins API answers: USD price and timestamp per token. */
  let quotes: Record<string, { price: number; timestamp: number }>;

  before(async () => {
    market = await startLocalMarket({ genesisTime: EPOCH - 3 * DAY, lending: true });
    pools = market.pools;
    coins = await startRouteServer({
      "/prices/current/*": ({ path }) => {
        const asked = path.slice("/prices/current/".length).split(",");
        const answer: Record<string, unknown> = {};
        for (const key of asked) {
          const quote = quotes[key.split(":")[1].toLowerCase()];
          if (quote) answer[key] = { symbol: "X", decimals: 18, confidence: 0.99, ...quote };
        }
        return { body: { coins: answer } };
      },
    });
  });
  after(async () => {
    await coins?.close();
    await market?.stop();
  });
  beforeEach(async () => {
    temp = await openTempStore({ prefix: "coins-" });
    store = temp.store;
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  const usdc = () => market.usdc.address.toLowerCase();
  const weth = () => market.weth.address.toLowerCase();

  async function passAt(time: number, coinsUrl: string | null = coins.url) {
    await market.mineAt(time);
    return runIngestionPass({
      store,
      pools,
      chains: [{ chainId: 1, client: market.client }],
      feeds: coinsUrl ? { defillamaCoinsUrl: coinsUrl } : {},
      now: () => time,
      issue: false,
      freshnessWindowS: WINDOW,
      feedOptions: { timeoutMs: 500, retries: 0 },
      log: () => undefined,
    });
  }

  /** Depth of the pair at given prices, from the reserves the pass stored. */
  async function pairDepthAt(usdcPrice: number, wethPrice: number): Promise<number> {
    const state = JSON.parse((await getPool(store.db, 1, pools[0].address))!.state_json!);
    const price = (token: string) => (token.toLowerCase() === usdc() ? usdcPrice : wethPrice);
    return (
      toUnits(BigInt(state.reserve0), state.decimals0) * price(state.token0) +
      toUnits(BigInt(state.reserve1), state.decimals1) * price(state.token1)
    );
  }

  it("values depth, exitability and swap volume with the API's prices, timed by the older of block and price", async () => {
    const d = EPOCH;
    const t = d + 2 * HOUR;
    quotes = { [usdc()]: { price: 0.998, timestamp: t - 120 }, [weth()]: { price: 2500, timestamp: t - 30 } };
    await swapAt(market, { time: d + HOUR, token: "usdc", amount: 1000 });
    const report = await passAt(t);
    expect(report.sources["defillama-coins"]).to.deep.equal({ ok: true, rows: 2 });

    const amm = (await getPool(store.db, 1, pools[0].address))!;
    expect(amm.depth_usd).to.be.closeTo(await pairDepthAt(0.998, 2500), 1e-6);
    expect(amm.depth_usd).to.be.greaterThan(2_200_000); // on-chain prices would give about $2M
    expect(amm.depth_observed_at).to.equal(t - 120);
    expect(JSON.parse(amm.state_json!)).to.deep.include({
      price0Source: "defillama-coins",
      price1Source: "defillama-coins",
    });
    expect(amm.volume_24h_usd).to.be.closeTo(998, 1e-9); // 1,000 USDC in at $0.998
    expect(amm.volume_observed_at).to.equal(t - 120);
    const lending = (await getPool(store.db, 1, pools[1].address))!;
    expect(lending.exitable_usd).to.be.closeTo(400_000 * 0.998, 1);
    expect(lending.depth_usd).to.equal(lending.exitable_usd);
    expect(lending).to.include({
      exitable_observed_at: t - 120,
      depth_observed_at: t - 120,
      supply_rate_observed_at: t,
    });

    const cached = await getTokenPrices(store.db, { chainId: 1, source: "defillama-coins" });
    expect(cached.get(weth())).to.include({ priceUsd: 2500, observedAt: t - 30 });
  });

  it("makes a value priced with a price older than the window stale, and keeps it out of the daily low", async () => {
    const t = EPOCH + 10 * DAY + 2 * HOUR;
    quotes = { [usdc()]: { price: 1, timestamp: t - 60 }, [weth()]: { price: 2400, timestamp: t - 2 * WINDOW } };
    await passAt(t);
    const amm = (await getPool(store.db, 1, pools[0].address))!;
    expect(amm.depth_usd).to.be.closeTo(await pairDepthAt(1, 2400), 1e-6);
    expect(amm.depth_observed_at).to.equal(t - 2 * WINDOW);
    expect(amm.freshness_state).to.equal("stale");
    expect(await getDailyHistory(store.db, 1, pools[0].address)).to.deep.equal([]);
    // The lending reserve is priced with USDC only: fresh, and recorded.
    const lending = (await getPool(store.db, 1, pools[1].address))!;
    expect(lending).to.include({ depth_observed_at: t - 60, freshness_state: "fresh" });
    expect(await getDailyHistory(store.db, 1, pools[1].address)).to.have.length(1);
  });

  it("falls back to the cached prices (and their age) when the API fails, and to none for unknown tokens", async () => {
    const t = EPOCH + 20 * DAY + 2 * HOUR;
    quotes = { [usdc()]: { price: 1, timestamp: t - 10 }, [weth()]: { price: 2600, timestamp: t - 10 } };
    await passAt(t);
    coins.routes.set("/prices/current/*", () => ({ status: 500 }));
    try {
      const later = t + 2 * WINDOW;
      const report = await passAt(later);
      expect(report.status).to.equal("partial");
      expect(report.sources["defillama-coins"]).to.include({ ok: false, rows: 0 });
      const amm = (await getPool(store.db, 1, pools[0].address))!;
      expect(amm.depth_usd).to.be.closeTo(await pairDepthAt(1, 2600), 1e-6); // today's reserves, cached prices
      expect(amm.depth_observed_at).to.equal(t - 10);
      expect(amm.freshness_state).to.equal("stale");
    } finally {
      coins.routes.set("/prices/current/*", () => ({ body: { coins: {} } }));
    }
    // An answer without the pool's tokens and no cache (a new store): not measured, nothing written.
    await temp.cleanup();
    temp = await openTempStore({ prefix: "coins-" });
    store = temp.store;
    await passAt(t + 3 * WINDOW);
    const amm = (await getPool(store.db, 1, pools[0].address))!;
    expect(amm.depth_usd).to.equal(null);
    expect(amm.volume_24h_usd).to.equal(null);
  });

  it("keeps prices derived on chain when the API is not configured (the demo)", async () => {
    await passAt(EPOCH + 30 * DAY, null);
    const state = JSON.parse((await getPool(store.db, 1, pools[0].address))!.state_json!);
    expect([state.price0Source, state.price1Source].sort()).to.deep.equal([`pair:${market.pair}`, "usd-anchor"].sort());
    expect((await getTokenPrices(store.db, { chainId: 1, source: "defillama-coins" })).size).to.equal(0);
  });
});
