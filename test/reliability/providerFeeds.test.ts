import { expect } from "chai";
import { demoDefillamaId } from "../../src/demo/feedBodies";
import { demoPoolConfigs, startFeedServer, type FeedServer } from "../../src/demo/feedServer";
import { createLocalSigner } from "../../src/attest/signer";
import { processHostBlocks } from "../../src/ingest/feeds/hostBlocks";
import type { FeedUrls } from "../../src/ingest/readSources";
import { runIngestionPass } from "../../src/ingest/runIngestionPass";
import type { PoolConfig } from "../../src/model/poolConfig";
import type { SourceReport } from "../../src/storage/ingestRuns";
import type { Store } from "../../src/storage/openStore";
import { getDailyHistory } from "../../src/storage/poolDaily";
import { listPoolRows } from "../helpers/storage/poolRows";
import { startFaultyFeedProxy, type FaultyFeedProxy, type ProxyFault } from "../helpers/ingest/faultyFeedProxy";
import { startLocalMarket, type LocalMarket } from "../helpers/ingest/localMarket";
import { startRouteServer, type RouteServer } from "../helpers/ingest/routeServer";
import { openTempStore, type TempStore } from "../helpers/storage/tempStore";

const DAY = 86_400;
const T0 = Date.UTC(2026, 9, 1, 12) / 1000;
const WINDOW = 3600;
const KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d" as const;

type Json = Record<string, unknown>;
type PoolsBody = { status: string; data: Json[] };
type Opportunity = Json & { campaigns: Json[] };

/** What a pass left in a store: pools, daily histories, campaigns, dex volumes. */
interface Snapshot {
  pools: Awaited<ReturnType<typeof listPoolRows>>;
  daily: Awaited<ReturnType<typeof getDailyHistory>>[];
  campaigns: Json[];
  dex: Json[];
}

/** Faults of the feeds as real providers show them; each case against a control store fed without faults. */
describe("reliability: real providers' bad rows, conflicts, bounds and HTTP", function () {
  let market: LocalMarket;
  let feeds: FeedServer;
  let proxy: FaultyFeedProxy;
  /** A second proxy: another origin, for the per-host rate limit. */
  let other: FaultyFeedProxy;
  let canary: RouteServer;
  let pools: PoolConfig[];
  let temps: TempStore[] = [];
  let control: Store;
  let faulted: Store;
  let clock = T0;

  before(async () => {
    market = await startLocalMarket({ genesisTime: T0 - DAY, lending: true });
    const described = market.pools.map((p) => ({ ...p, underlying: p.underlying ? [p.underlying] : [] }));
    feeds = await startFeedServer({
      pools: described,
      now: () => clock,
      // 20 completed days of history before T0 (enough to issue), at DefiLlama's usual 23:01 UTC snapshot.
      history: () =>
        Array.from({ length: 20 }, (_, i) => 20 - i).map((d) => ({
          time: T0 - 12 * 3600 - d * DAY + 23 * 3600 + 60,
          tvlUsd: 1e6 + d,
        })),
    });
    const target = new URL(feeds.urls.defillamaYieldsUrl).origin;
    proxy = await startFaultyFeedProxy({ target });
    other = await startFaultyFeedProxy({ target });
    canary = await startRouteServer({ "/*": () => ({ body: { status: "success", data: [] } }) });
    pools = demoPoolConfigs(described);
  });
  after(async () => {
    await proxy?.close();
    await other?.close();
    await canary?.close();
    await feeds?.close();
    await market?.stop();
  });
  beforeEach(async () => {
    const open = async () => {
      const temp = await openTempStore({ prefix: "providers-" });
      temps.push(temp);
      return temp.store;
    };
    control = await open();
    faulted = await open();
    proxy.clearFaults();
    other.clearFaults();
    processHostBlocks.clear();
  });
  afterEach(async () => {
    for (const temp of temps) await temp.cleanup();
    temps = [];
    processHostBlocks.clear();
  });

  async function pass(store: Store, parameters: { feeds?: FeedUrls; maxBytes?: number; issue?: boolean } = {}) {
    return runIngestionPass({
      store,
      pools,
      chains: [{ chainId: 1, client: market.client }],
      feeds: parameters.feeds ?? proxy.urls,
      now: () => clock,
      issue: parameters.issue ? { signer: createLocalSigner(KEY), lifetimeS: DAY } : false,
      freshnessWindowS: WINDOW,
      feedOptions: { timeoutMs: 2000, retries: 1, backoffMs: 5, maxBytes: parameters.maxBytes },
      log: () => undefined,
    });
  }

  /** A store's rows, pools and histories in the order of `pools`. */
  async function snapshot(store: Store): Promise<Snapshot> {
    const rows = await listPoolRows(store.db);
    return {
      pools: pools.map((p) => rows.find((r) => r.address === p.address.toLowerCase())!),
      daily: await Promise.all(pools.map((p) => getDailyHistory(store.db, p.chainId, p.address))),
      campaigns: (await store.db
        .selectFrom("campaigns")
        .selectAll()
        .orderBy("distribution_chain_id")
        .orderBy("id")
        .execute()) as unknown as Json[],
      dex: (await store.db
        .selectFrom("dex_volumes")
        .selectAll()
        .orderBy("chain")
        .orderBy("protocol")
        .orderBy("day")
        .execute()) as unknown as Json[],
    };
  }

  /**
   * Two passes into each store at the same blocks and clock (the next day's noon, then 10 minutes later): the
   * control's without faults, the faulted store's with `first` / `second` set on the proxy for its pass.
   */
  async function twin(parameters: {
    first?: () => void;
    second?: () => void;
    feeds?: FeedUrls;
    maxBytes?: number;
    /** Both second passes issue attestations too. */
    issue?: boolean;
  }) {
    const base = Math.ceil((clock + 1) / DAY) * DAY + 12 * 3600;
    clock = base;
    await market.mineAt(base);
    const c1 = await pass(control);
    parameters.first?.();
    const f1 = await pass(faulted);
    proxy.clearFaults();
    const controlFirst = await snapshot(control);
    const faultedFirst = await snapshot(faulted);
    clock = base + 600;
    await market.mineAt(clock);
    const c2 = await pass(control, { issue: parameters.issue });
    parameters.second?.();
    const f2 = await pass(faulted, { feeds: parameters.feeds, maxBytes: parameters.maxBytes, issue: parameters.issue });
    proxy.clearFaults();
    return {
      base,
      c1,
      f1,
      c2,
      f2,
      controlFirst,
      faultedFirst,
      control: await snapshot(control),
      faulted: await snapshot(faulted),
    };
  }

  const rewrite = (body: (json: unknown) => unknown): ProxyFault => ({ kind: "rewrite", body });
  const onPools = (change: (body: PoolsBody) => void) =>
    rewrite((json) => {
      const body = json as PoolsBody;
      change(body);
      return body;
    });
  const onMerkl = (change: (opportunities: Opportunity[]) => void) =>
    rewrite((json) => {
      const body = json as Opportunity[];
      change(body);
      return body;
    });
  const trackedId = () => demoDefillamaId(pools[0].chainId, pools[0].address);
  const rowOf = (body: PoolsBody) => body.data.find((p) => p.pool === trackedId())!;

  /** The other sources of a pass are as the control's: chain, swaps and the feeds not at fault. */
  function othersUnaffected(
    faultedReport: Record<string, SourceReport>,
    controlReport: Record<string, SourceReport>,
    except: string[],
  ) {
    for (const [name, report] of Object.entries(controlReport)) {
      if (except.includes(name)) continue;
      expect(faultedReport[name], name).to.deep.equal(report);
    }
  }

  /** The faulted store kept the first pass's feed values for pool `i`, and has the control's on-chain values. */
  function keptFeedValues(run: Awaited<ReturnType<typeof twin>>, i: number) {
    const kept = run.faulted.pools[i];
    expect(kept.tvl_usd).to.equal(run.faultedFirst.pools[i].tvl_usd);
    expect(kept.apy_percent).to.equal(run.faultedFirst.pools[i].apy_percent);
    expect(kept.feed_observed_at).to.equal(run.base);
    expect(kept.depth_usd).to.equal(run.control.pools[i].depth_usd);
    expect(kept.depth_observed_at).to.equal(run.control.pools[i].depth_observed_at);
  }

  describe("1. Merkl timestamps and campaigns that cannot be read", function () {
    const faults: [string, (c: Json) => void, RegExp][] = [
      [
        "timestamps in milliseconds",
        (c) => {
          c.startTimestamp = Number(c.startTimestamp) * 1000;
          c.endTimestamp = Number(c.endTimestamp) * 1000;
        },
        /startTimestamp: \d{13} is not Unix seconds within \[2015-01-01, now \+ 5 years\]/,
      ],
      ["a decimal amount", (c) => void (c.amount = "1.5"), /amount: Invalid/],
      ["a campaign of the wrong shape", (c) => void (c.rewardToken = "USDC"), /rewardToken: Expected object/],
    ];
    for (const [what, change, cause] of faults) {
      it(`fails the merkl source on ${what}, naming it, and keeps the stored campaigns`, async function () {
        const run = await twin({
          second: () =>
            proxy.setFault(
              "/merkl/",
              onMerkl((list) => change(list[0].campaigns[0])),
            ),
          issue: true,
        });
        // The signed claims are the control's: the stored campaigns still cap the horizons.
        expect(run.c2.issuance.some((outcome) => outcome.action === "issued")).to.equal(true);
        expect(run.f2.issuance).to.deep.equal(run.c2.issuance);
        expect(run.c2.sources.merkl.ok).to.equal(true);
        expect(run.f2.sources.merkl).to.include({ ok: false, rows: 0 });
        expect(run.f2.sources.merkl.error).to.match(cause);
        expect(run.faulted.campaigns).to.have.length(2);
        expect(run.faulted.campaigns).to.deep.equal(run.faultedFirst.campaigns);
        // Nothing else moved: pools, histories, dex volumes and the other sources are the control's.
        expect(run.faulted.pools).to.deep.equal(run.control.pools);
        expect(run.faulted.daily).to.deep.equal(run.control.daily);
        expect(run.faulted.dex).to.deep.equal(run.control.dex);
        othersUnaffected(run.f2.sources, run.c2.sources, ["merkl"]);
      });
    }
  });

  describe("2. two rows for one key", function () {
    it("refuses both copies of a /pools id listed twice with different values (any letter case); the pool keeps its stored values", async function () {
      const run = await twin({
        second: () =>
          proxy.setFault(
            "/yields/pools",
            onPools((body) => body.data.push({ ...rowOf(body), pool: trackedId().toUpperCase(), apy: 99.9 })),
          ),
      });
      expect(run.f2.sources["defillama-yields"]).to.deep.equal({
        ok: true,
        rows: 1,
        conflicts: 1,
        reasons: [`data: pool ${JSON.stringify(trackedId())} answered twice with different values`],
      });
      keptFeedValues(run, 0);
      expect(run.faulted.pools[0].apy_percent).to.not.equal(99.9);
      expect(run.faulted.pools[1]).to.deep.equal(run.control.pools[1]);
      othersUnaffected(run.f2.sources, run.c2.sources, ["defillama-yields"]);
    });

    it("keeps one of two identical copies: the control's result", async function () {
      const run = await twin({
        second: () =>
          proxy.setFault(
            "/yields/pools",
            onPools((body) => body.data.push({ ...rowOf(body) })),
          ),
      });
      expect(run.f2.sources).to.deep.equal(run.c2.sources);
      expect(run.faulted.pools).to.deep.equal(run.control.pools);
    });

    it("refuses both points of a /chart timestamp with two values: that day is not backfilled", async function () {
      const run = await twin({
        first: () =>
          proxy.setFault(
            `/yields/chart/${trackedId()}`,
            rewrite((json) => {
              const body = json as PoolsBody;
              body.data.push({ ...body.data[0], tvlUsd: 1 });
              return body;
            }),
          ),
      });
      expect(run.f1.sources["defillama-chart"]).to.include({ ok: true, rows: 2, conflicts: 1 });
      expect(run.f1.sources["defillama-chart"].reasons![0]).to.match(/timestamp "[0-9T:.-]+Z" answered twice/);
      const day = run.controlFirst.daily[0][0].day;
      expect(run.faultedFirst.daily[0].map((d) => d.day)).to.not.include(day);
      expect(run.faultedFirst.daily[0]).to.deep.equal(run.controlFirst.daily[0].filter((d) => d.day !== day));
      expect(run.faultedFirst.daily[0].some((d) => d.min_depth_usd === 1)).to.equal(false);
      expect(run.faultedFirst.daily[1]).to.deep.equal(run.controlFirst.daily[1]);
    });

    it("refuses both copies of a Merkl campaign key with different values, counted, the source ok", async function () {
      const run = await twin({
        first: () =>
          proxy.setFault(
            "/merkl/",
            onMerkl((list) => list[0].campaigns.push({ ...list[0].campaigns[0], amount: "12345" })),
          ),
      });
      expect(run.f1.sources.merkl).to.include({ ok: true, rows: 1, conflicts: 1 });
      expect(run.f1.sources.merkl.reasons![0]).to.match(/campaign "1:0x[0-9a-f]{64}" .* answered twice/);
      const refused = run.controlFirst.campaigns.filter((c) => !run.faultedFirst.campaigns.some((f) => f.id === c.id));
      expect(refused).to.have.length(1);
      expect(run.faultedFirst.campaigns).to.deep.equal(run.controlFirst.campaigns.filter((c) => c !== refused[0]));
    });

    it("refuses both points of a dex chart timestamp with two values and skips a point in milliseconds", async function () {
      let twice = 0;
      let ms = 0;
      const run = await twin({
        second: () =>
          proxy.setFault(
            "/api/overview/dexs/",
            rewrite((json) => {
              const body = json as { totalDataChartBreakdown: [number, Record<string, number>][] };
              const rows = body.totalDataChartBreakdown;
              const [ts, values] = rows[rows.length - 2];
              twice = ts;
              rows.push([ts, Object.fromEntries(Object.keys(values).map((k) => [k, 1]))]);
              ms = rows[rows.length - 4][0];
              rows[rows.length - 4] = [ms * 1000, rows[rows.length - 4][1]];
              return body;
            }),
          ),
      });
      expect(run.f2.sources["defillama-dexs"]).to.include({ ok: true, rejectedRows: 1, conflicts: 1 });
      const day = (ts: number) => new Date(ts * 1000).toISOString().slice(0, 10);
      for (const [i, row] of run.faulted.dex.entries()) {
        const refused = row.day === day(twice) || row.day === day(ms);
        expect(row, String(row.day)).to.deep.equal(refused ? run.faultedFirst.dex[i] : run.control.dex[i]);
      }
      expect(run.faulted.dex.some((r) => r.volume_usd === 1)).to.equal(false);
      expect(run.faulted.pools).to.deep.equal(run.control.pools);
    });
  });

  describe("3. plausibility bounds", function () {
    for (const [value, reason] of [
      [1e308, "data[0].tvlUsd: 1e+308 above 1e13"],
      [1e-300, "data[0].tvlUsd: 1e-300 below 1e-6 (and not 0)"],
      [-5, "data[0].tvlUsd: -5 is negative"],
    ] as const) {
      it(`skips a /pools row whose tvlUsd is ${value}, counted; the pool keeps its stored values`, async function () {
        const run = await twin({
          second: () =>
            proxy.setFault(
              "/yields/pools",
              onPools((body) => {
                const row = rowOf(body);
                body.data = [{ ...row, tvlUsd: value }, ...body.data.filter((p) => p !== row)];
              }),
            ),
        });
        expect(run.f2.sources["defillama-yields"]).to.deep.equal({
          ok: true,
          rows: 1,
          rejectedRows: 1,
          reasons: [reason],
        });
        keptFeedValues(run, 0);
        expect(run.faulted.pools[1]).to.deep.equal(run.control.pools[1]);
        othersUnaffected(run.f2.sources, run.c2.sources, ["defillama-yields"]);
      });
    }

    it("skips a /chart point of 1e308: that day is not backfilled, the others are", async function () {
      const run = await twin({
        first: () =>
          proxy.setFault(
            `/yields/chart/${trackedId()}`,
            rewrite((json) => {
              (json as PoolsBody).data[0].tvlUsd = 1e308;
              return json;
            }),
          ),
      });
      expect(run.f1.sources["defillama-chart"]).to.include({ ok: true, rejectedRows: 1 });
      const day = run.controlFirst.daily[0][0].day;
      expect(run.faultedFirst.daily[0]).to.deep.equal(run.controlFirst.daily[0].filter((d) => d.day !== day));
    });
  });

  describe("4. one bad row", function () {
    it("skips an untracked /pools row with tvlUsd null; every tracked pool is updated as in the control", async function () {
      const run = await twin({
        second: () =>
          proxy.setFault(
            "/yields/pools",
            onPools((body) => body.data.push({ ...rowOf(body), pool: "untracked-1", tvlUsd: null })),
          ),
      });
      expect(run.f2.sources["defillama-yields"]).to.deep.equal({
        ok: true,
        rows: 2,
        rejectedRows: 1,
        reasons: ["data[2].tvlUsd: Expected number, received null"],
      });
      expect(run.faulted.pools).to.deep.equal(run.control.pools);
    });
  });

  describe("5. empty answers", function () {
    for (const [what, change] of [
      ["no row at all", (body: PoolsBody) => void (body.data = [])],
      ["none of the tracked pools", (body: PoolsBody) => void (body.data = [{ ...rowOf(body), pool: "untracked-1" }])],
    ] as const) {
      it(`fails defillama-yields on an answer with ${what} after tracked rows came, stored values kept`, async function () {
        const run = await twin({ second: () => proxy.setFault("/yields/pools", onPools(change)) });
        expect(run.f2.sources["defillama-yields"]).to.include({ ok: false, rows: 0 });
        expect(run.f2.sources["defillama-yields"].error).to.match(/^empty answer: /);
        keptFeedValues(run, 0);
        keptFeedValues(run, 1);
        othersUnaffected(run.f2.sources, run.c2.sources, ["defillama-yields"]);
      });
    }

    it("fails merkl on an empty listing while stored campaigns still run, campaigns kept", async function () {
      const run = await twin({
        second: () =>
          proxy.setFault(
            "/merkl/",
            onMerkl((list) => list.splice(0)),
          ),
      });
      expect(run.f2.sources.merkl).to.include({ ok: false, rows: 0 });
      expect(run.f2.sources.merkl.error).to.match(/^empty answer: no opportunity while 2 stored campaign/);
      expect(run.faulted.campaigns).to.deep.equal(run.faultedFirst.campaigns);
      othersUnaffected(run.f2.sources, run.c2.sources, ["merkl"]);
    });
  });

  describe("6. HTTP", function () {
    for (const [where, location] of [
      ["loopback", () => `${canary.url}/pools`],
      ["the metadata address", () => "http://169.254.169.254/latest/meta-data/"],
    ] as const) {
      it(`never follows a redirect (to ${where}): the source fails naming the Location`, async function () {
        const before = [...canary.counts.values()].reduce((a, b) => a + b, 0);
        const run = await twin({
          second: () =>
            proxy.setFault("/yields/pools", { kind: "status", status: 302, headers: { location: location() } }),
        });
        expect(run.f2.sources["defillama-yields"]).to.include({ ok: false, rows: 0 });
        expect(run.f2.sources["defillama-yields"].error).to.include(
          `redirect (HTTP 302) to "${location()}" not followed`,
        );
        expect([...canary.counts.values()].reduce((a, b) => a + b, 0)).to.equal(before);
        keptFeedValues(run, 0);
        othersUnaffected(run.f2.sources, run.c2.sources, ["defillama-yields"]);
      });
    }

    it("stops asking a host that answered 429 Retry-After until it passes; other hosts go on", async function () {
      const feedsWithMerklElsewhere = { ...proxy.urls, merklApiUrl: other.urls.merklApiUrl };
      other.setFault("/merkl/", { kind: "status", status: 429, headers: { "retry-after": "30" } });
      const started = Date.now();
      const run = await twin({ feeds: feedsWithMerklElsewhere });
      const asked = other.requests.get("/merkl/v4/opportunities");
      expect(asked).to.equal(1);
      const error = run.f2.sources.merkl.error!;
      const until = Date.parse(/rate limited until (\S+)/.exec(error)![1]);
      expect(until).to.be.within(started + 30_000, Date.now() + 30_000);
      expect(run.faulted.campaigns).to.deep.equal(run.faultedFirst.campaigns);
      othersUnaffected(run.f2.sources, run.c2.sources, ["merkl"]);
      // The next pass asks nothing of that host and says why.
      other.clearFaults();
      const again = await pass(faulted, { feeds: feedsWithMerklElsewhere });
      expect(other.requests.get("/merkl/v4/opportunities")).to.equal(asked);
      expect(again.sources.merkl.error).to.match(/rate limited until /);
      expect(again.sources["defillama-yields"].ok).to.equal(true);
    });

    it("refuses a body above FEED_MAX_BYTES while it streams, naming the cap", async function () {
      const run = await twin({
        second: () => proxy.setFault("/yields/pools", { kind: "oversize", bytes: 3 * 1024 * 1024 }),
        maxBytes: 1024 * 1024,
      });
      expect(run.f2.sources["defillama-yields"]).to.include({ ok: false, rows: 0 });
      expect(run.f2.sources["defillama-yields"].error).to.include("body above FEED_MAX_BYTES (1048576 bytes)");
      keptFeedValues(run, 0);
      othersUnaffected(run.f2.sources, run.c2.sources, ["defillama-yields"]);
    });
  });
});
