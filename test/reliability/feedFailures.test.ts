import { expect } from "chai";
import { createPublicClient, http, type PublicClient } from "viem";
import { demoPoolConfigs, startFeedServer, type FeedFault, type FeedServer } from "../../src/demo/feedServer";
import { isStale } from "../../src/model/freshness";
import type { PoolConfig } from "../../src/model/poolConfig";
import { runIngestionPass } from "../../src/ingest/runIngestionPass";
import type { Store } from "../../src/storage/openStore";
import { getDailyHistory } from "../../src/storage/poolDaily";
import { listPoolRows } from "../helpers/storage/poolRows";
import { startLocalMarket, type LocalMarket } from "../helpers/ingest/localMarket";
import { openTempStore, type TempStore } from "../helpers/storage/tempStore";

const T0 = Date.UTC(2026, 9, 1, 12) / 1000;
const WINDOW = 3600;

describe("reliability: feeds that fail", function () {
  let market: LocalMarket;
  let feeds: FeedServer;
  let pools: PoolConfig[];
  let temp: TempStore;
  let store: Store;
  let clock = T0;

  before(async () => {
    market = await startLocalMarket({ genesisTime: T0 - 86_400, lending: true });
    const described = market.pools.map((p) => ({ ...p, underlying: p.underlying ? [p.underlying] : [] }));
    feeds = await startFeedServer({ pools: described, now: () => clock });
    pools = demoPoolConfigs(described);
  });
  after(async () => {
    await feeds?.close();
    await market?.stop();
  });
  beforeEach(async () => {
    temp = await openTempStore({ prefix: "feedfail-" });
    store = temp.store;
  });
  afterEach(async () => {
    for (const feed of ["pools", "chart", "dexs", "merkl"] as const) feeds.setFault(feed, "none");
    await temp.cleanup();
  });

  async function passAt(time: number, client: PublicClient = market.client) {
    clock = time;
    await market.mineAt(time);
    return runIngestionPass({
      store,
      pools,
      chains: [{ chainId: 1, client }],
      feeds: feeds.urls,
      now: () => clock,
      issue: false,
      freshnessWindowS: WINDOW,
      feedOptions: { timeoutMs: 300, retries: 1, backoffMs: 5 },
      log: () => undefined,
    });
  }

  for (const fault of ["timeout", "error", "garbage", "invalid"] as FeedFault[]) {
    it(`completes as "partial" when every feed answers "${fault}", keeps stored rows, and they turn stale`, async () => {
      const base = clock + 10_000;
      expect((await passAt(base)).status).to.equal("ok");
      const before = await listPoolRows(store.db);
      const campaigns = await store.db.selectFrom("campaigns").selectAll().execute();
      const volumes = await store.db.selectFrom("dex_volumes").selectAll().execute();
      expect(before.every((p) => p.tvl_usd !== null && p.feed_observed_at === base)).to.equal(true);

      for (const feed of ["pools", "dexs", "merkl"] as const) feeds.setFault(feed, fault);
      const later = base + 600;
      const report = await passAt(later);
      expect(report.status).to.equal("partial");
      expect(report.sources["chain:1"].ok).to.equal(true);
      for (const source of ["defillama-yields", "defillama-dexs", "merkl"]) {
        expect(report.sources[source].ok, source).to.equal(false);
        expect(report.sources[source].error, source).to.be.a("string");
      }

      const after = await listPoolRows(store.db);
      for (const [i, row] of after.entries()) {
        // Feed values are exactly as the last good pass left them; on-chain values moved on.
        expect(row.tvl_usd).to.equal(before[i].tvl_usd);
        expect(row.apy_percent).to.equal(before[i].apy_percent);
        expect(row.feed_observed_at).to.equal(base);
        expect(row.depth_observed_at).to.equal(later);
      }
      expect(await store.db.selectFrom("campaigns").selectAll().execute()).to.deep.equal(campaigns);
      expect(await store.db.selectFrom("dex_volumes").selectAll().execute()).to.deep.equal(volumes);

      // Past the freshness window the kept feed values are stale (held out of totals), the fresh depth is not.
      const now = base + WINDOW + 1;
      expect(after.every((r) => isStale({ observedAt: r.feed_observed_at, now, windowS: WINDOW }))).to.equal(true);
      expect(after.every((r) => !isStale({ observedAt: r.depth_observed_at, now, windowS: WINDOW }))).to.equal(true);
    });
  }

  it("keeps on-chain values when the RPC is unreachable, and they turn stale", async () => {
    const base = clock + 10_000;
    expect((await passAt(base)).status).to.equal("ok");
    const before = await listPoolRows(store.db);
    const dead = createPublicClient({
      transport: http("http://127.0.0.1:9", { retryCount: 0, timeout: 500 }),
    }) as PublicClient;
    const report = await passAt(base + 600, dead);
    expect(report.status).to.equal("partial");
    expect(report.sources["chain:1"]).to.include({ ok: false, rows: 0 });
    const after = await listPoolRows(store.db);
    for (const [i, row] of after.entries()) {
      expect(row.depth_usd).to.equal(before[i].depth_usd);
      expect(row.depth_observed_at).to.equal(base);
      expect(row.feed_observed_at).to.equal(base + 600);
    }
    expect((await getDailyHistory(store.db, 1, pools[0].address)).map((d) => d.samples)).to.deep.equal([1]);
    expect(isStale({ observedAt: after[0].depth_observed_at, now: base + WINDOW + 1, windowS: WINDOW })).to.equal(true);
  });
});
