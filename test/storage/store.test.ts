import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { StoreOpenError } from "../../src/errors/storage";
import { getLatestAttestation, insertAttestation, listLatestClaims } from "../../src/storage/attestations";
import { getCampaignsFor, upsertCampaigns } from "../../src/storage/campaigns";
import { upsertDexVolumes } from "../../src/storage/dexVolumes";
import {
  closeInterruptedRuns,
  finishIngestRun,
  heartbeatIngestRun,
  listIngestRuns,
  startIngestRun,
} from "../../src/storage/ingestRuns";
import { openStore, type Store } from "../../src/storage/openStore";
import { backfillDailyDepth, getDailyHistory, recordDailyDepth, utcDay } from "../../src/storage/poolDaily";
import { getPool, upsertPool } from "../../src/storage/pools";
import { forEachBackend } from "../helpers/storage/backends";
import { freshPostgresUrl } from "../../testkit/postgres";

const POOL = "0xAbCdEf0000000000000000000000000000000001";
const DAY0 = Date.UTC(2026, 10, 1) / 1000; // 2026-11-01T00:00:00Z

/** The same repository behaviour on both dialects: one query layer, two databases. */
function repositorySuite(open: () => Promise<Store>) {
  let store: Store;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(async () => {
    await store.close();
  });

  describe("upsertPool", () => {
    it("writes only the columns it is given, so a later partial pass never blanks a value", async () => {
      await upsertPool(store.db, {
        chainId: 1,
        address: POOL,
        kind: "amm",
        symbol: "WETH-USDC",
        protocol: "uniswap-v2",
        values: { depth_usd: 1000, depth_observed_at: DAY0, depth_block: "12", defillama_id: "uuid-1" },
        now: DAY0,
      });
      await upsertPool(store.db, {
        chainId: 1,
        address: POOL,
        kind: "amm",
        symbol: "WETH-USDC",
        protocol: "uniswap-v2",
        values: { tvl_usd: 2000, apy_percent: 4.5, feed_observed_at: DAY0 + 60, depth_usd: undefined },
        now: DAY0 + 60,
      });
      const row = await getPool(store.db, 1, POOL.toUpperCase().replace("0X", "0x"));
      expect(row).to.not.equal(undefined);
      expect(row!.address).to.equal(POOL.toLowerCase());
      expect(row!.depth_usd).to.equal(1000);
      expect(row!.depth_observed_at).to.equal(DAY0);
      expect(row!.depth_block).to.equal("12");
      expect(row!.defillama_id).to.equal("uuid-1");
      expect(row!.tvl_usd).to.equal(2000);
      expect(row!.feed_observed_at).to.equal(DAY0 + 60);
      expect(row!.created_at).to.equal(DAY0);
      expect(row!.updated_at).to.equal(DAY0 + 60);
      expect(typeof row!.depth_observed_at).to.equal("number");
    });

    it("keys pools by chain and address: the same address on two chains is two rows", async () => {
      for (const chainId of [1, 8453]) {
        await upsertPool(store.db, {
          chainId,
          address: POOL,
          kind: "amm",
          symbol: "X",
          protocol: "uniswap-v2",
          values: { depth_usd: chainId },
          now: DAY0,
        });
      }
      expect((await getPool(store.db, 1, POOL))!.depth_usd).to.equal(1);
      expect((await getPool(store.db, 8453, POOL))!.depth_usd).to.equal(8453);
    });
  });

  describe("recordDailyDepth", () => {
    it("keeps one row per pool per UTC day with the lowest depth and where it was seen", async () => {
      await recordDailyDepth(store.db, {
        chainId: 1,
        address: POOL,
        depthUsd: 500,
        observedAt: DAY0 + 100,
        block: "10",
      });
      await recordDailyDepth(store.db, {
        chainId: 1,
        address: POOL,
        depthUsd: 300,
        observedAt: DAY0 + 200,
        block: "11",
      });
      await recordDailyDepth(store.db, {
        chainId: 1,
        address: POOL,
        depthUsd: 400,
        observedAt: DAY0 + 300,
        block: "12",
      });
      await recordDailyDepth(store.db, {
        chainId: 1,
        address: POOL,
        depthUsd: 900,
        observedAt: DAY0 + 86400,
        block: "13",
      });
      const rows = await getDailyHistory(store.db, 1, POOL);
      expect(rows.map((r) => r.day)).to.deep.equal(["2026-11-01", "2026-11-02"]);
      expect(rows[0]).to.include({
        min_depth_usd: 300,
        min_observed_at: DAY0 + 200,
        min_block: "11",
        last_observed_at: DAY0 + 300,
        samples: 3,
      });
      expect(rows[1]).to.include({ min_depth_usd: 900, samples: 1 });
    });

    it("backfills feed history only on days without a row", async () => {
      await recordDailyDepth(store.db, {
        chainId: 1,
        address: POOL,
        depthUsd: 500,
        observedAt: DAY0 + 100,
        block: "10",
      });
      const written = await backfillDailyDepth(store.db, {
        chainId: 1,
        address: POOL,
        points: [
          { day: utcDay(DAY0 - 86400), depthUsd: 700, observedAt: DAY0 - 86400 },
          { day: utcDay(DAY0), depthUsd: 1, observedAt: DAY0 },
        ],
      });
      expect(written).to.equal(1);
      const rows = await getDailyHistory(store.db, 1, POOL);
      expect(rows.map((r) => [r.day, r.min_depth_usd, r.min_block])).to.deep.equal([
        ["2026-10-31", 700, null],
        ["2026-11-01", 500, "10"],
      ]);
    });
  });

  describe("attestations", () => {
    it("stores an attestation once and returns the latest per pool", async () => {
      const base = {
        chain_id: 1,
        address: POOL,
        horizon_days: 7,
        confidence_hundredths: 85,
        canonical: "{}",
        signature: "0x00",
        attester: "0x0000000000000000000000000000000000000001",
        floor: 0.5,
        depth_at_issuance_usd: 1000,
        model: "m",
        inputs_hash: "0x01",
        outcome: "pending",
        eip712_json: null,
      };
      await insertAttestation(store.db, { ...base, id: "a", issued_at: DAY0, expiry: DAY0 + 10, created_at: DAY0 });
      await insertAttestation(store.db, { ...base, id: "a", issued_at: DAY0, expiry: DAY0 + 10, created_at: DAY0 });
      await insertAttestation(store.db, { ...base, id: "b", issued_at: DAY0 + 5, expiry: DAY0 + 15, created_at: DAY0 });
      const latest = await getLatestAttestation(store.db, 1, POOL.toLowerCase());
      expect(latest!.id).to.equal("b");
      expect(latest!.address).to.equal(POOL.toLowerCase());
      const count = await store.db
        .selectFrom("attestations")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirst();
      expect(Number(count!.n)).to.equal(2);
      // Every pool's latest claim in one query: "b" (the later issuedAt), and on another chain its own.
      await insertAttestation(store.db, {
        ...base,
        id: "c",
        chain_id: 8453,
        horizon_days: 30,
        confidence_hundredths: 90,
        issued_at: DAY0 + 1,
        expiry: DAY0 + 20,
        created_at: DAY0,
      });
      const claims = await listLatestClaims(store.db);
      expect(claims.sort((x, y) => x.chainId - y.chainId)).to.deep.equal([
        { chainId: 1, address: POOL.toLowerCase(), horizon: 7, confidence: 0.85, expiry: DAY0 + 15 },
        { chainId: 8453, address: POOL.toLowerCase(), horizon: 30, confidence: 0.9, expiry: DAY0 + 20 },
      ]);
    });
  });

  describe("campaigns and dex volumes", () => {
    it("refreshes campaigns by id and finds them by opportunity id or identifier", async () => {
      const row = {
        id: "c1",
        distributionChainId: 1,
        chainId: 1,
        opportunityId: "opp-1",
        identifier: POOL,
        name: "n",
        type: "UNISWAP_V2",
        status: "LIVE",
        rewardToken: "0x01",
        amount: "1000",
        aprPercent: 3,
        startsAt: DAY0,
        endsAt: DAY0 + 86400,
        observedAt: DAY0,
      };
      await upsertCampaigns(store.db, [row]);
      await upsertCampaigns(store.db, [{ ...row, status: "PAST", observedAt: DAY0 + 1 }]);
      const byIdentifier = await getCampaignsFor(store.db, 1, POOL.toLowerCase());
      expect(byIdentifier).to.have.length(1);
      expect(byIdentifier[0]).to.include({ status: "PAST", observed_at: DAY0 + 1 });
      expect(await getCampaignsFor(store.db, 1, "opp-1")).to.have.length(1);
      expect(await getCampaignsFor(store.db, 8453, "opp-1")).to.have.length(0);
    });

    it("replaces a day's volume with the later observation", async () => {
      await upsertDexVolumes(store.db, [
        { chain: "Ethereum", protocol: "uniswap", day: "2026-11-01", volumeUsd: 5, observedAt: 1 },
      ]);
      await upsertDexVolumes(store.db, [
        { chain: "Ethereum", protocol: "uniswap", day: "2026-11-01", volumeUsd: 7, observedAt: 2 },
      ]);
      const rows = await store.db.selectFrom("dex_volumes").selectAll().execute();
      expect(rows).to.deep.equal([
        { chain: "Ethereum", protocol: "uniswap", day: "2026-11-01", volume_usd: 7, observed_at: 2 },
      ]);
    });
  });

  describe("ingest_runs", () => {
    it("records a pass and closes passes a dead process left running", async () => {
      await startIngestRun(store.db, { id: "r1", startedAt: DAY0 });
      await finishIngestRun(store.db, {
        id: "r1",
        finishedAt: DAY0 + 5,
        status: "partial",
        sources: { merkl: { ok: false, error: "x" } },
      });
      await startIngestRun(store.db, { id: "r2", startedAt: DAY0 + 10 });
      const closed = await closeInterruptedRuns(store.db, { now: DAY0 + 20, staleBefore: DAY0 + 10 });
      expect(closed.map((r) => r.id)).to.deep.equal(["r2"]);
      const runs = await listIngestRuns(store.db);
      expect(runs.map((r) => [r.id, r.status, r.finished_at])).to.deep.equal([
        ["r2", "failed", DAY0 + 20],
        ["r1", "partial", DAY0 + 5],
      ]);
      expect(JSON.parse(runs[1].sources_json)).to.deep.equal({ merkl: { ok: false, error: "x" } });
    });

    it("closes a running run only when its heartbeat is old, and each run once", async () => {
      await startIngestRun(store.db, { id: "live", startedAt: DAY0, instanceId: "a" });
      await startIngestRun(store.db, { id: "dead", startedAt: DAY0, instanceId: "b" });
      await heartbeatIngestRun(store.db, { id: "live", at: DAY0 + 100 });
      const closed = await closeInterruptedRuns(store.db, { now: DAY0 + 101, staleBefore: DAY0 + 50 });
      expect(closed.map((r) => [r.id, r.instance_id, r.status])).to.deep.equal([["dead", "b", "failed"]]);
      expect(await closeInterruptedRuns(store.db, { now: DAY0 + 102, staleBefore: DAY0 + 50 })).to.deep.equal([]);
      const runs = await listIngestRuns(store.db);
      expect(Object.fromEntries(runs.map((r) => [r.id, [r.status, r.heartbeat_at]]))).to.deep.equal({
        live: ["running", DAY0 + 100],
        dead: ["failed", DAY0],
      });
    });
  });
}

describe("openStore", () => {
  describe("SQLite", () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), "store-"));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it("creates the file and its folder, uses WAL and applies the migrations once", async () => {
      const file = join(dir, "nested", "service.sqlite");
      const store = await openStore({ file });
      expect(store.dialect).to.equal("sqlite");
      const mode = await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(store.db);
      expect(mode.rows[0].journal_mode).to.equal("wal");
      const fk = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(store.db);
      expect(fk.rows[0].foreign_keys).to.equal(1);
      await store.close();
      const again = await openStore({ file });
      const applied = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(again.db);
      expect(applied.rows.map((r) => r.name)).to.deep.equal([
        "001_initial",
        "002_issue_reason",
        "003_market",
        "004_auth",
        "005_alerts",
        "006_owner_indexes",
        "007_alert_accounts",
        "008_leader",
        "009_model_evaluations",
        "010_cursor_hash",
        "011_campaign_key",
        "012_model_claims",
        "013_accuracy_record",
        "014_watchlist",
        "015_apy_split",
        "016_alert_pool",
      ]);
      await again.close();
    });

    it("rejects a missing path and a non-PostgreSQL URL with StoreOpenError", async () => {
      let error: unknown;
      try {
        await openStore({});
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(StoreOpenError);
      error = undefined;
      try {
        await openStore({ databaseUrl: "mysql://localhost/x" });
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(StoreOpenError);
      expect((error as StoreOpenError).code).to.equal("STORE_OPEN_FAILED");
    });
  });

  describe("PostgreSQL (throwaway local cluster)", function () {
    it("keeps an idle connection for idleTimeoutMs: a later query reuses it (same backend), a short timeout closes it", async function () {
      const url = await freshPostgresUrl();
      const backend = async (store: Store) =>
        (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(store.db)).rows[0].pid;
      const kept = await openStore({ databaseUrl: url, idleTimeoutMs: 60_000 });
      const brief = await openStore({ databaseUrl: url, idleTimeoutMs: 100 });
      try {
        const [keptFirst, briefFirst] = [await backend(kept), await backend(brief)];
        await new Promise((resolve) => setTimeout(resolve, 600));
        expect(await backend(kept), "the idle connection was kept and reused").to.equal(keptFirst);
        expect(await backend(brief), "the idle connection was closed: a new one answers").to.not.equal(briefFirst);
      } finally {
        await kept.close();
        await brief.close();
      }
    });

    it("applies the same migrations and reports the postgres dialect", async function () {
      const store = await openStore({ databaseUrl: await freshPostgresUrl() });
      expect(store.dialect).to.equal("postgres");
      const applied = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(store.db);
      expect(applied.rows.map((r) => r.name)).to.deep.equal([
        "001_initial",
        "002_issue_reason",
        "003_market",
        "004_auth",
        "005_alerts",
        "006_owner_indexes",
        "007_alert_accounts",
        "008_leader",
        "009_model_evaluations",
        "010_cursor_hash",
        "011_campaign_key",
        "012_model_claims",
        "013_accuracy_record",
        "014_watchlist",
        "015_apy_split",
        "016_alert_pool",
      ]);
      await store.close();
    });
  });
});

describe("repositories", () => {
  forEachBackend((openFresh) => repositorySuite(openFresh));
});
