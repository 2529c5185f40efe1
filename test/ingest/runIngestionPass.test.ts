import { expect } from "chai";
import { privateKeyToAddress } from "viem/accounts";
import type { Address, Hex } from "viem";
import { demoDefillamaId } from "../../src/demo/feedBodies";
import { demoPoolConfigs, startFeedServer, type FeedServer } from "../../src/demo/feedServer";
import { runIngestionPass } from "../../src/ingest/runIngestionPass";
import type { PoolConfig } from "../../src/model/poolConfig";
import { verifyAttestation } from "../../src/lib/verifyAttestation";
import { verifyTypedAttestation } from "../../src/lib/verifyTypedAttestation";
import { computeHorizon } from "../../src/model/horizon";
import { getLatestAttestation } from "../../src/storage/attestations";
import { listIngestRuns } from "../../src/storage/ingestRuns";
import { openStore, type Store } from "../../src/storage/openStore";
import { getDailyHistory, utcDay } from "../../src/storage/poolDaily";
import { getPool } from "../../src/storage/pools";
import { freshPostgresUrl } from "../../testkit/postgres";
import { startLocalMarket, type LocalMarket } from "../helpers/ingest/localMarket";
import { createLocalSigner } from "../../src/attest/signer";
import { openTempStore, type TempStore } from "../helpers/storage/tempStore";

const KEY: Hex = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const ATTESTER = privateKeyToAddress(KEY);
const REGISTRY = { chainId: 1, address: "0x5FbDB2315678afecb367f032d93F642f64180aa3" as Address };
/** 2026-10-01 12:00 UTC: the simulated history starts here, far from any day boundary. */
const DAY0 = Date.UTC(2026, 9, 1, 12) / 1000;
const DAY = 86_400;
const quiet = () => undefined;

describe("runIngestionPass", function () {
  let market: LocalMarket;
  let feeds: FeedServer;
  let pools: PoolConfig[];
  let clock: number;
  let temp: TempStore;
  let store: Store;

  before(async () => {
    market = await startLocalMarket({ genesisTime: DAY0 - DAY, lending: true });
    clock = DAY0;
    feeds = await startFeedServer({
      pools: market.pools.map((p) => ({ ...p, underlying: p.underlying ? [p.underlying] : [] })),
      now: () => clock,
    });
    pools = demoPoolConfigs(market.pools.map((p) => ({ ...p, underlying: p.underlying ? [p.underlying] : [] })));
  });
  after(async () => {
    await feeds?.close();
    await market?.stop();
  });
  beforeEach(async () => {
    temp = await openTempStore({ prefix: "pass-" });
    store = temp.store;
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  /** Moves chain time to `time` and runs a pass whose clock is that time. */
  async function passAt(
    time: number,
    options: { issue?: boolean; lifetimeS?: number; registry?: boolean; target?: Store } = {},
  ) {
    clock = time;
    await market.mineAt(time);
    return runIngestionPass({
      store: options.target ?? store,
      pools,
      chains: [{ chainId: 1, client: market.client }],
      feeds: feeds.urls,
      now: () => clock,
      issue:
        options.issue === false
          ? false
          : {
              signer: createLocalSigner(KEY),
              lifetimeS: options.lifetimeS ?? DAY,
              ...(options.registry ? { registry: REGISTRY } : {}),
            },
      freshnessWindowS: 3600,
      feedOptions: { timeoutMs: 2000, retries: 1, backoffMs: 5 },
      log: quiet,
    });
  }

  it("stores on-chain depth, feed values, the daily low, campaigns and dex volumes, and records the pass", async () => {
    const t = DAY0 + 100;
    const report = await passAt(t);
    expect(report.status, JSON.stringify(report.sources)).to.equal("ok");
    expect(Object.keys(report.sources).sort()).to.deep.equal([
      "chain:1",
      "defillama-chart",
      "defillama-dexs",
      "defillama-yields",
      "grade",
      "issue",
      "merkl",
      "swaps:1",
    ]);
    expect(report.observedPools).to.equal(2);

    const amm = await getPool(store.db, 1, pools[0].address);
    expect(amm!.depth_usd).to.be.closeTo(2_000_000, 1);
    expect(amm!.depth_observed_at).to.equal(t);
    expect(Number(amm!.depth_block)).to.be.greaterThan(0);
    expect(amm!.exitable_usd).to.equal(null);
    expect(amm!.defillama_id).to.equal(demoDefillamaId(1, pools[0].address));
    expect(amm!.tvl_usd).to.be.a("number");
    expect(amm!.feed_observed_at).to.equal(t);
    expect(amm!.volume_24h_usd).to.be.a("number");
    expect(JSON.parse(amm!.state_json!)).to.include({ symbol0: "USDC" });

    const lending = await getPool(store.db, 1, pools[1].address);
    expect(lending!.depth_usd).to.be.closeTo(400_000, 1);
    expect(lending!.exitable_usd).to.be.closeTo(400_000, 1);
    expect(lending!.supply_rate_percent).to.be.greaterThan(0).and.lessThan(100);
    expect(lending!.supply_rate_observed_at).to.equal(t);

    const daily = await getDailyHistory(store.db, 1, pools[0].address);
    expect(daily.map((d) => [d.day, d.samples, d.min_observed_at])).to.deep.equal([[utcDay(t), 1, t]]);
    const campaigns = await store.db.selectFrom("campaigns").selectAll().execute();
    expect(campaigns).to.have.length(2);
    expect(campaigns.every((c) => c.end_ts! > t)).to.equal(true);
    const volumes = await store.db.selectFrom("dex_volumes").selectAll().execute();
    // The demo series ends with today, unfinished like the real one: 29 completed days are stored.
    expect(volumes).to.have.length(29);
    expect(volumes.every((v) => v.chain === "Ethereum" && v.protocol === "Uniswap V2")).to.equal(true);

    const runs = await listIngestRuns(store.db);
    expect(runs).to.have.length(1);
    expect(runs[0]).to.include({ id: report.runId, status: "ok", finished_at: report.finishedAt });
    // One day of history: nothing can be attested yet, and the reason says why.
    expect(report.issuance.map((o) => o.action)).to.deep.equal(["none", "none"]);
    expect((report.issuance[0] as { reason: string }).reason).to.match(/^insufficient history/);
    // The verdict is kept on the pool row for the API's NO_ATTESTATION answer.
    expect((await getPool(store.db, 1, pools[0].address))!).to.include({ issue_checked_at: t });
    expect((await getPool(store.db, 1, pools[0].address))!.issue_reason).to.match(/^insufficient history/);
  });

  it("keeps the lowest depth of each day and issues a signed attestation once enough days are complete", async () => {
    let report;
    const base = DAY0 + DAY; // after the first test's pass: chain time only moves forward
    for (let day = 0; day < 20; day++) {
      const t = base + day * DAY;
      if (day === 6) await market.removeLiquidity(0.3); // a 30 % dip: the claim (≥ 50 %) still holds
      report = await passAt(t, { registry: true, lifetimeS: 3600 });
      if (day === 6) {
        await market.addLiquidity(300_000);
        report = await passAt(t + 600, { registry: true }); // same day, deeper again: the day keeps its low
      }
      // n completed days give n − 7 seven-day windows. Too few pooled windows to calibrate on, so the conservative
      // prior (v2) decides: (2w + 7) / (2w + 14) reaches 0.8 at w = 11 windows, so day 18 is the first to attest.
      expect(report.issuance[0].action, `day ${day}`).to.equal(day < 18 ? "none" : "issued");
    }
    const daily = await getDailyHistory(store.db, 1, pools[0].address);
    expect(daily).to.have.length(20);
    expect(daily[6].samples).to.equal(2);
    expect(daily[6].min_depth_usd).to.be.closeTo(daily[5].min_depth_usd * 0.7, daily[5].min_depth_usd * 0.01);

    // 19 completed days → 12 seven-day windows: the 7-day horizon is published.
    const issued = report!.issuance[0];
    expect(issued.action).to.equal("issued");
    expect((await getPool(store.db, 1, pools[0].address))!.issue_reason).to.equal(null);
    const row = (await getLatestAttestation(store.db, 1, pools[0].address))!;
    const expected = computeHorizon({
      daily: daily.slice(0, 19).map((d) => ({ day: d.day, minDepthUsd: d.min_depth_usd })),
      depthNow: row.depth_at_issuance_usd,
    });
    expect(row).to.include({
      horizon_days: expected.horizonDays,
      confidence_hundredths: expected.confidence,
      outcome: "pending",
    });
    expect(row.horizon_days).to.equal(7);
    expect(row).to.include({ issued_at: clock, expiry: clock + 3600, floor: 0.5, attester: ATTESTER.toLowerCase() });
    expect(row.depth_at_issuance_usd).to.be.closeTo(2_000_000, 10); // 0.7 × 2M + 2 × 300k

    const attestation = {
      chainId: row.chain_id,
      confidence: row.confidence_hundredths / 100,
      expiry: row.expiry,
      horizon: row.horizon_days,
      issuedAt: row.issued_at,
      pool: row.address,
      signature: row.signature,
    };
    const v1 = verifyAttestation({ attestation, address: ATTESTER, time: new Date(clock * 1000) });
    expect(v1).to.include({ valid: true, expired: false, canonical: row.canonical });
    const eip712 = JSON.parse(row.eip712_json!);
    expect(eip712.domain).to.deep.include({ name: "AttestationRegistry", chainId: "1" });
    expect(eip712.message.horizonDays).to.equal("7");
    const v2 = verifyTypedAttestation({
      attestation: { ...attestation, eip712 },
      registry: REGISTRY,
      address: ATTESTER,
      time: new Date(clock * 1000),
    });
    expect(v2.valid).to.equal(true);

    // Re-issue rules. Same inputs, unexpired: kept.
    const again = await passAt(clock + 60, { registry: true });
    expect(again.issuance[0].action).to.equal("kept");
    // Expired (same day, same completed history): a new one.
    const expired = await passAt(row.expiry + 1, { registry: true, lifetimeS: 3600 });
    expect(utcDay(row.expiry + 1)).to.equal(utcDay(row.issued_at));
    expect(expired.issuance[0].action).to.equal("issued");
    // Next day: a new completed day changes the inputs, before the previous one expired.
    const lifetimeLong = 30 * DAY;
    const fresh = await passAt(base + 20 * DAY, { lifetimeS: lifetimeLong });
    expect(fresh.issuance[0].action).to.equal("issued");
    const kept = await passAt(base + 20 * DAY + 60, { lifetimeS: lifetimeLong });
    expect(kept.issuance[0].action).to.equal("kept");
    const next = await passAt(base + 21 * DAY, { lifetimeS: lifetimeLong });
    expect(next.issuance[0].action).to.equal("issued");
  });

  it("reports a pool whose on-chain read fails and still stores the others (status partial)", async () => {
    const bogus: PoolConfig = {
      chainId: 1,
      address: "0x000000000000000000000000000000000000dead",
      kind: "amm",
      symbol: "X-Y",
      protocol: "uniswap-v2",
    };
    clock = DAY0 + 30 * DAY;
    await market.mineAt(clock);
    const report = await runIngestionPass({
      store,
      pools: [...pools, bogus],
      chains: [{ chainId: 1, client: market.client }],
      feeds: {},
      now: () => clock,
      issue: false,
      freshnessWindowS: 3600,
      log: quiet,
    });
    expect(report.status).to.equal("partial");
    expect(report.sources["chain:1"].ok).to.equal(false);
    expect(report.sources["chain:1"].error).to.match(
      /0x000000000000000000000000000000000000dEaD|0x000000000000000000000000000000000000dead/i,
    );
    expect((await getPool(store.db, 1, pools[0].address))!.depth_observed_at).to.equal(clock);
    const row = await getPool(store.db, 1, bogus.address);
    expect(row!.depth_usd).to.equal(null);
  });

  it("reports a chain without a client and runs no issuance when issue is false", async () => {
    const report = await runIngestionPass({
      store,
      pools: [{ ...pools[0], chainId: 8453 }],
      chains: [],
      feeds: {},
      now: () => DAY0,
      issue: false,
      freshnessWindowS: 3600,
      log: quiet,
    });
    expect(report.status).to.equal("failed");
    expect(report.sources["chain:8453"]).to.deep.equal({
      ok: false,
      error: "no RPC client configured for this chain",
      rows: 0,
    });
    expect(report.issuance).to.deep.equal([]);
  });

  it("reports failed (not partial) when every data source failed, even though the issuance step ran", async () => {
    const report = await runIngestionPass({
      store,
      pools: [{ ...pools[0], chainId: 8453 }],
      chains: [],
      feeds: {},
      now: () => DAY0,
      issue: { signer: createLocalSigner(KEY), lifetimeS: DAY },
      freshnessWindowS: 3600,
      log: quiet,
    });
    expect(report.sources.issue).to.deep.equal({ ok: true, rows: 0 });
    expect(report.issuance.map((outcome) => outcome.action)).to.deep.equal(["none"]);
    expect(report.status).to.equal("failed");
    expect((await listIngestRuns(store.db)).map((run) => run.status)).to.deep.equal(["failed"]);
  });

  it("lets two passes overlap in one process without marking the first interrupted", async () => {
    const t = DAY0 + 35 * DAY;
    clock = t;
    await market.mineAt(t);
    const lines: string[] = [];
    const run = () =>
      runIngestionPass({
        store,
        pools,
        chains: [{ chainId: 1, client: market.client }],
        feeds: feeds.urls,
        now: () => clock,
        issue: false,
        freshnessWindowS: 3600,
        log: (line) => lines.push(line),
      });
    feeds.setDelay(300);
    try {
      const first = run();
      while ((await listIngestRuns(store.db)).length === 0) await new Promise((r) => setTimeout(r, 5));
      const second = run();
      const reports = await Promise.all([first, second]);
      expect(reports.map((r) => r.status)).to.deep.equal(["ok", "ok"]);
    } finally {
      feeds.setDelay(0);
    }
    expect(lines.filter((line) => /^closed/.test(line))).to.deep.equal([]);
    expect((await listIngestRuns(store.db)).map((r) => r.status)).to.deep.equal(["ok", "ok"]);
  });

  it("runs the same pass against PostgreSQL", async () => {
    const pgStore = await openStore({ databaseUrl: await freshPostgresUrl() });
    try {
      const report = await passAt(DAY0 + 40 * DAY, { target: pgStore });
      expect(report.status).to.equal("ok");
      const row = await getPool(pgStore.db, 1, pools[0].address);
      expect(row!.depth_observed_at).to.equal(DAY0 + 40 * DAY);
      expect(row!.depth_usd).to.be.greaterThan(0);
      expect(await getDailyHistory(pgStore.db, 1, pools[1].address)).to.have.length(1);
      expect(await pgStore.db.selectFrom("campaigns").selectAll().execute()).to.have.length(2);
    } finally {
      await pgStore.close();
    }
  });
});
