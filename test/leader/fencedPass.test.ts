import { expect } from "chai";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Address } from "viem";
import { LeaseLostError, PassAbortedError } from "../../src/errors/lease";
import { runIngestionPass, type RunIngestionPassParameters } from "../../src/ingest/runIngestionPass";
import type { PoolConfig } from "../../src/model/poolConfig";
import { listActivity } from "../../src/storage/activity";
import { countIngestRuns, heartbeatIngestRun, listIngestRuns, startIngestRun } from "../../src/storage/ingestRuns";
import { acquireLease, type LeaseHold } from "../../src/storage/leaderLease";
import { openStore, type Store } from "../../src/storage/openStore";
import { listPoolRows } from "../helpers/storage/poolRows";
import { waitFor } from "../helpers/alerts/receiver";
import { fixture } from "../helpers/ingest/routeServer";
import { rejection } from "../helpers/rejection";
import { freshPostgresUrl, sharedPostgres } from "../../testkit/postgres";
import { openTempStore, type TempStore } from "../helpers/storage/tempStore";

const T = 1_800_000_000; // Unix seconds
const POOL: PoolConfig = {
  chainId: 1,
  address: "0x00000000000000000000000000000000000000aa" as Address,
  kind: "amm",
  symbol: "USDC-WETH",
  protocol: "uniswap-v2",
  defillamaId: "a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601",
};

/** A DefiLlama yields feed whose `/pools` answer waits for `beforeAnswer` (the test's move in the middle of the pass). */
async function startYieldsFeed(): Promise<{ url: string; beforeAnswer: () => Promise<void>; close(): Promise<void> }> {
  const feed = {
    url: "",
    beforeAnswer: async () => undefined as void,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    void feed.beforeAnswer().then(() => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(fixture("defillama-pools.json")));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  feed.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return feed;
}

/** Every activity event, oldest first, with its data parsed. */
async function events(store: Store) {
  const rows = await listActivity(store.db, { limit: 1000, beforeId: null });
  return rows.reverse().map((row) => ({ kind: row.kind, data: JSON.parse(row.data_json) as Record<string, unknown> }));
}

describe("a fenced pass on PostgreSQL (two processes on one database)", function () {
  let a: Store;
  let b: Store;
  let feed: Awaited<ReturnType<typeof startYieldsFeed>>;
  let held: LeaseHold;
  before(async function () {
    this.timeout(60_000);
    await sharedPostgres();
    feed = await startYieldsFeed();
  });
  after(() => feed.close());
  beforeEach(async () => {
    const url = await freshPostgresUrl();
    a = await openStore({ databaseUrl: url });
    b = await openStore({ databaseUrl: url });
    held = (await acquireLease(a.db, { name: "ingest", holder: "a", ttlMs: 60_000, nowMs: Date.now() }))!;
    feed.beforeAnswer = async () => undefined;
  });
  afterEach(async () => {
    await a.close();
    await b.close();
  });

  const pass = (overrides: Partial<RunIngestionPassParameters> = {}) =>
    runIngestionPass({
      store: a,
      pools: [POOL],
      chains: [],
      feeds: { defillamaYieldsUrl: feed.url },
      now: () => T,
      issue: false,
      freshnessWindowS: 3600,
      backfillBelowDays: 0,
      log: () => undefined,
      instanceId: "a",
      fence: { lease: held },
      ...overrides,
    });

  it("writes under its lease, and its ingest.pass carries the instance", async () => {
    const report = await pass();
    // Partial: the pool's chain has no RPC client here; the feed's values are written.
    expect(report.status).to.equal("partial");
    expect((await listPoolRows(a.db)).map((p) => p.tvl_usd)).to.deep.equal([41235877]);
    const passes = (await events(b)).filter((e) => e.kind === "ingest.pass");
    expect(passes.map((e) => [e.data.runId, e.data.instance, e.data.status])).to.deep.equal([
      [report.runId, "a", "partial"],
    ]);
    expect((await listIngestRuns(b.db)).map((r) => [r.instance_id, r.status])).to.deep.equal([["a", "partial"]]);
  });

  it("commits nothing when its lease is taken over between read and write; the run is recorded failed with the reason", async () => {
    feed.beforeAnswer = async () => {
      await acquireLease(b.db, { name: "ingest", holder: "b", ttlMs: 60_000, nowMs: Date.now(), steal: true });
    };
    const error = await rejection(pass());
    expect(error).to.be.instanceOf(LeaseLostError);
    expect(await listPoolRows(b.db)).to.deep.equal([]);
    const all = await events(b);
    expect(all.map((e) => [e.kind, e.data.instance, e.data.status])).to.deep.equal([["ingest.pass", "a", "failed"]]);
    const sources = all[0].data.sources as Record<string, { ok: boolean; error?: string }>;
    expect(sources.pass.error).to.match(/no longer held by a: b holds it now \(epoch 2\)/);
    expect((await listIngestRuns(b.db)).map((r) => r.status)).to.deep.equal(["failed"]);
  });

  it("stops when asked: the read in progress is not awaited and nothing is committed; the run is recorded failed", async () => {
    const stop = new AbortController();
    let answer: () => void = () => undefined;
    feed.beforeAnswer = () => {
      stop.abort(new PassAbortedError());
      return new Promise<void>((resolve) => (answer = resolve));
    };
    const error = await rejection(pass({ fence: { lease: held, signal: stop.signal } }));
    answer();
    expect(error).to.be.instanceOf(PassAbortedError);
    expect(await listPoolRows(b.db)).to.deep.equal([]);
    const all = await events(b);
    expect(all.map((e) => [e.kind, e.data.status])).to.deep.equal([["ingest.pass", "failed"]]);
    expect(JSON.stringify(all[0].data.sources)).to.match(/stopped before it finished/);
  });

  it("a pass asked to stop before it starts records no run at all", async () => {
    const stop = new AbortController();
    stop.abort();
    expect(await rejection(pass({ fence: { signal: stop.signal } }))).to.be.instanceOf(PassAbortedError);
    expect(await countIngestRuns(b.db)).to.equal(0);
  });

  it("keeps its heartbeat while it runs; a starting pass leaves another live instance's run alone and closes a silent one", async () => {
    await startIngestRun(b.db, { id: "live-elsewhere", startedAt: T - 600, instanceId: "b" });
    await heartbeatIngestRun(b.db, { id: "live-elsewhere", at: T - 5 });
    await startIngestRun(b.db, { id: "silent", startedAt: T - 600, instanceId: "gone" });
    let clock = T;
    feed.beforeAnswer = () =>
      waitFor(async () => {
        const mine = (await listIngestRuns(b.db)).find((r) => r.instance_id === "a");
        return mine !== undefined && mine.heartbeat_at! > mine.started_at;
      }, "a heartbeat of the pass in progress");
    const report = await pass({ now: () => clock++, heartbeat: { intervalMs: 20, staleAfterS: 60 } });
    const runs = Object.fromEntries((await listIngestRuns(b.db)).map((r) => [r.id, r.status]));
    expect(runs).to.deep.equal({ "live-elsewhere": "running", silent: "failed", [report.runId]: "partial" });
    const passes = (await events(b)).filter((e) => e.kind === "ingest.pass");
    expect(passes.map((e) => [e.data.runId, e.data.instance, e.data.status])).to.deep.equal([
      ["silent", "gone", "failed"],
      [report.runId, "a", "partial"],
    ]);
  });
});

describe("a pass asked to stop on SQLite", () => {
  let temp: TempStore;
  let store: Store;
  let feed: Awaited<ReturnType<typeof startYieldsFeed>>;
  beforeEach(async () => {
    temp = await openTempStore({ prefix: "fenced-" });
    store = temp.store;
    feed = await startYieldsFeed();
  });
  afterEach(async () => {
    await feed.close();
    await temp.cleanup();
  });

  it("commits nothing of the pass", async () => {
    const stop = new AbortController();
    feed.beforeAnswer = async () => stop.abort();
    const error = await rejection(
      runIngestionPass({
        store,
        pools: [POOL],
        chains: [],
        feeds: { defillamaYieldsUrl: feed.url },
        now: () => T,
        issue: false,
        freshnessWindowS: 3600,
        backfillBelowDays: 0,
        log: () => undefined,
        fence: { signal: stop.signal },
      }),
    );
    expect(error).to.be.instanceOf(PassAbortedError);
    expect(await listPoolRows(store.db)).to.deep.equal([]);
    expect((await listIngestRuns(store.db)).map((r) => r.status)).to.deep.equal(["failed"]);
  });
});
