import { expect } from "chai";
import type { PublicClient } from "viem";
import { runIngestionPass, type RunIngestionPassParameters } from "../../src/ingest/runIngestionPass";
import { isStale } from "../../src/model/freshness";
import { toUnits } from "../../src/model/pairMath";
import type { PoolConfig } from "../../src/model/poolConfig";
import { getLogCursors } from "../../src/storage/logCursors";
import { openStore, type Store } from "../../src/storage/openStore";
import { utcDay } from "../../src/storage/poolDaily";
import { listDailyVolume, listHourlyVolume } from "../../src/storage/poolVolume";
import { getPool } from "../../src/storage/pools";
import { freshPostgresUrl } from "../../testkit/postgres";
import { startLocalMarket, type LocalMarket } from "../helpers/ingest/localMarket";
import { countingClient, failingClient, swapAt, type SentSwap } from "../helpers/ingest/swaps";
import { openTempStore, type TempStore } from "../helpers/storage/tempStore";

const DAY = 86_400;
const HOUR = 3600;
const WINDOW = 3600;
/** A UTC midnight; each test works in its own stretch of chain time, 10 days after the previous one. */
const EPOCH = Date.UTC(2026, 9, 1) / 1000;
const quiet = () => undefined;

describe("swap volume from Swap logs", function () {
  let market: LocalMarket;
  let pools: PoolConfig[];
  let amm: string;
  let temp: TempStore;
  let store: Store;

  before(async () => {
    market = await startLocalMarket({ genesisTime: EPOCH - 3 * DAY, lending: true });
    pools = market.pools;
    amm = pools[0].address;
  });
  after(async () => market?.stop());
  beforeEach(async () => {
    temp = await openTempStore({ prefix: "volume-" });
    store = temp.store;
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  /** Mines a block at `time` (unless told not to) and runs a pass pinned to it with no feeds. */
  async function passAt(
    time: number,
    options: { client?: PublicClient; logs?: RunIngestionPassParameters["logs"]; target?: Store; mine?: boolean } = {},
  ) {
    if (options.mine !== false) await market.mineAt(time);
    return runIngestionPass({
      store: options.target ?? store,
      pools,
      chains: [{ chainId: 1, client: options.client ?? market.client }],
      feeds: {},
      now: () => time,
      issue: false,
      freshnessWindowS: WINDOW,
      ...(options.logs ? { logs: options.logs } : {}),
      log: quiet,
    });
  }

  /** The USD value of sent swaps at the prices the last pass stored (USDC is the $1 anchor). */
  async function usdOf(swaps: readonly SentSwap[], target: Store = store): Promise<number> {
    const state = JSON.parse((await getPool(target.db, 1, amm))!.state_json!) as Record<string, string | number>;
    const wethIs0 = String(state.token0).toLowerCase() === market.weth.address.toLowerCase();
    const weth = Number(wethIs0 ? state.price0Usd : state.price1Usd);
    return swaps.reduce(
      (total, s) => total + (s.token === "usdc" ? toUnits(s.amountIn, 6) : toUnits(s.amountIn, 18) * weth),
      0,
    );
  }

  async function days(target: Store = store) {
    const rows = await listDailyVolume(target.db, { fromDay: "2000-01-01", toDay: "2100-01-01", chainId: 1 });
    return rows.map((r) => ({ day: r.day, swaps: r.swaps, volume: r.volume_usd }));
  }

  it("buckets known swaps by UTC day and hour at the pass's prices, and sums the 24 h up to the pinned block", async () => {
    const d = EPOCH;
    const early = [
      await swapAt(market, { time: d + 1 * HOUR + 60, token: "usdc", amount: 1000 }),
      await swapAt(market, { time: d + 1 * HOUR + 600, token: "usdc", amount: 2000 }),
    ];
    const late = [
      await swapAt(market, { time: d + 5 * HOUR, token: "usdc", amount: 500 }),
      await swapAt(market, { time: d + 5 * HOUR + 100, token: "weth", amount: 0.25 }),
    ];
    const nextDay = [await swapAt(market, { time: d + DAY + 2 * HOUR, token: "usdc", amount: 700 })];
    const t = d + DAY + 3 * HOUR;
    const report = await passAt(t);
    expect(report.sources["swaps:1"]).to.deep.equal({ ok: true, rows: 1 });

    const weth = (await usdOf(late)) - 500;
    expect(weth).to.be.closeTo(500, 20); // 0.25 WETH at about $2000
    const rows = await days();
    expect(rows.map((r) => [r.day, r.swaps])).to.deep.equal([
      [utcDay(d), 4],
      [utcDay(d + DAY), 1],
    ]);
    expect(rows[0].volume).to.be.closeTo(3500 + weth, 1e-6);
    expect(rows[1].volume).to.be.closeTo(700, 1e-9);
    const hours = await listHourlyVolume(store.db, { chainId: 1, address: amm });
    expect(hours.map((h) => [h.hour, h.swaps])).to.deep.equal([
      [d + HOUR, 2],
      [d + 5 * HOUR, 2],
      [d + DAY + 2 * HOUR, 1],
    ]);
    expect(hours[0].volume_usd).to.be.closeTo(await usdOf(early), 1e-9);

    // The 24 h: hourly buckets starting after t − 24 h (d + 3 h): 05:00 and the next day's 02:00.
    const pool = (await getPool(store.db, 1, amm))!;
    expect(pool.volume_24h_usd).to.be.closeTo(500 + weth + (await usdOf(nextDay)), 1e-6);
    expect(pool.volume_observed_at).to.equal(t);
    const lending = (await getPool(store.db, 1, pools[1].address))!;
    expect(lending.volume_24h_usd).to.equal(null);
    expect(lending.volume_observed_at).to.equal(null);
    expect(lending.exitable_observed_at).to.equal(t);
    const cursor = (await getLogCursors(store.db, { source: "swaps", chainId: 1 })).get(amm)!;
    expect(cursor.lastBlockTime).to.equal(t);
    expect(cursor.nextBlock).to.equal((await market.driver.latestBlock()).number + 1n);
  });

  it("resumes from its cursor: a range split across passes is counted once, in bounded requests", async () => {
    const d = EPOCH + 10 * DAY;
    const sent = [
      await swapAt(market, { time: d + 1 * HOUR, token: "usdc", amount: 100 }),
      await swapAt(market, { time: d + 2 * HOUR, token: "usdc", amount: 200 }),
      await swapAt(market, { time: d + 2 * HOUR + 1800, token: "usdc", amount: 300 }),
    ];
    // Ranges of 2 blocks, 2 requests a pass: the 7 blocks since the lookback's midnight take several passes.
    const logs = { rangeBlocks: 2, maxRangesPerPass: 2 };
    const counted = countingClient(market.client);
    const first = await passAt(d + 3 * HOUR, { logs, client: counted.client });
    expect(counted.counts.get("eth_getLogs")).to.equal(2);
    expect(first.sources["swaps:1"]).to.deep.equal({ ok: true, rows: 0 }); // not yet at the pinned block
    expect((await getPool(store.db, 1, amm))!.volume_24h_usd).to.equal(null);
    // The lookback's first day (the day before, no swap) and swaps 1 and 2 (blocks 1–4 of 7).
    expect((await days()).map((r) => [r.day, r.swaps])).to.deep.equal([
      [utcDay(d - DAY), 0],
      [utcDay(d), 2],
    ]);

    sent.push(await swapAt(market, { time: d + 3 * HOUR + 1800, token: "usdc", amount: 400 }));
    let t = d + 4 * HOUR;
    for (let i = 0; i < 5 && (await passAt(t, { logs })).sources["swaps:1"].rows === 0; i++) t += 60;
    const pool = (await getPool(store.db, 1, amm))!;
    expect(pool.volume_observed_at).to.equal(t);
    expect(pool.volume_24h_usd).to.be.closeTo(1000, 1e-9);
    const rows = await days();
    expect(rows).to.have.length(2);
    expect(rows[1]).to.deep.include({ day: utcDay(d), swaps: 4 });
    expect(rows[1].volume).to.be.closeTo(1000, 1e-9);
    expect(await usdOf(sent)).to.equal(1000);
    // Once caught up, a pass reads one range.
    const again = countingClient(market.client);
    await passAt(t + 600, { client: again.client });
    expect(again.counts.get("eth_getLogs")).to.equal(1);
    expect((await days())[1].swaps).to.equal(4);
  });

  it("catches a missed pass up from the cursor, with a zero row for a day without swaps", async () => {
    const d = EPOCH + 20 * DAY;
    await passAt(d + HOUR);
    const sent = [
      await swapAt(market, { time: d + 2 * HOUR, token: "usdc", amount: 10 }),
      await swapAt(market, { time: d + 2 * DAY + HOUR, token: "usdc", amount: 20 }),
    ];
    // No pass for two days (the service was down), then one pass.
    const t = d + 2 * DAY + 2 * HOUR;
    expect((await passAt(t)).sources["swaps:1"]).to.deep.equal({ ok: true, rows: 1 });
    expect(await days()).to.deep.equal([
      { day: utcDay(d - DAY), swaps: 0, volume: 0 },
      { day: utcDay(d), swaps: 1, volume: 10 },
      { day: utcDay(d + DAY), swaps: 0, volume: 0 },
      { day: utcDay(d + 2 * DAY), swaps: 1, volume: 20 },
    ]);
    expect((await getPool(store.db, 1, amm))!.volume_24h_usd).to.equal(20);
    expect(await usdOf(sent)).to.equal(30);
  });

  it("keeps every stored value when eth_getLogs fails, and the volume turns stale after the window", async () => {
    const d = EPOCH + 30 * DAY;
    await swapAt(market, { time: d + HOUR, token: "usdc", amount: 50 });
    const base = d + 2 * HOUR;
    await passAt(base);
    const before = (await getPool(store.db, 1, amm))!;
    expect(before.volume_24h_usd).to.equal(50);
    const daysBefore = await days();
    const cursorBefore = await getLogCursors(store.db, { source: "swaps", chainId: 1 });

    await swapAt(market, { time: base + 300, token: "usdc", amount: 60 });
    const broken = failingClient(market.client, ["eth_getLogs"]);
    const report = await passAt(base + 600, { client: broken });
    expect(report.status).to.equal("partial");
    expect(report.sources["chain:1"].ok).to.equal(true);
    expect(report.sources["swaps:1"]).to.include({ ok: false, rows: 0 });
    expect(report.sources["swaps:1"].error).to.match(/eth_getLogs/);
    const after = (await getPool(store.db, 1, amm))!;
    expect(after.volume_24h_usd).to.equal(50);
    expect(after.volume_observed_at).to.equal(base);
    expect(after.depth_observed_at).to.equal(base + 600);
    expect(await days()).to.deep.equal(daysBefore);
    expect(await getLogCursors(store.db, { source: "swaps", chainId: 1 })).to.deep.equal(cursorBefore);
    expect(isStale({ observedAt: after.volume_observed_at, now: base + WINDOW + 1, windowS: WINDOW })).to.equal(true);
    expect(isStale({ observedAt: after.volume_observed_at, now: base + WINDOW, windowS: WINDOW })).to.equal(false);

    // The next working pass reads from the cursor: the missed swap is counted, once.
    await passAt(base + 1200);
    expect((await getPool(store.db, 1, amm))!.volume_24h_usd).to.equal(110);
    expect((await days()).at(-1)).to.deep.include({ swaps: 2, volume: 110 });
  });

  it("counts a range once when two passes read it at the same time", async () => {
    const d = EPOCH + 40 * DAY;
    await passAt(d + HOUR);
    await swapAt(market, { time: d + 2 * HOUR, token: "usdc", amount: 70 });
    const t = d + 3 * HOUR;
    await market.mineAt(t);
    const reports = await Promise.all([passAt(t, { mine: false }), passAt(t, { mine: false })]);
    expect(reports.map((r) => r.sources["swaps:1"].ok)).to.deep.equal([true, true]);
    expect((await days()).at(-1)).to.deep.include({ swaps: 1, volume: 70 });
    expect((await getPool(store.db, 1, amm))!.volume_24h_usd).to.equal(70);
  });

  it("counts ranges once and resumes from the cursor on PostgreSQL, two passes at a time", async () => {
    const target = await openStore({ databaseUrl: await freshPostgresUrl() });
    try {
      const d = EPOCH + 50 * DAY;
      await swapAt(market, { time: d + HOUR, token: "usdc", amount: 5 });
      await passAt(d + 2 * HOUR, { target, logs: { rangeBlocks: 2, maxRangesPerPass: 1 } });
      await swapAt(market, { time: d + 3 * HOUR, token: "usdc", amount: 6 });
      const t = d + 4 * HOUR;
      await market.mineAt(t);
      await Promise.all([passAt(t, { target, mine: false }), passAt(t, { target, mine: false })]);
      expect(await days(target)).to.deep.equal([
        { day: utcDay(d - DAY), swaps: 0, volume: 0 },
        { day: utcDay(d), swaps: 2, volume: 11 },
      ]);
      const pool = (await getPool(target.db, 1, amm))!;
      expect(pool).to.include({ volume_24h_usd: 11, volume_observed_at: t });
    } finally {
      await target.close();
    }
  });
});
