import { expect } from "chai";
import type { Kysely } from "kysely";
import { POOL_HISTORY_PARAMETERS } from "../../src/read/getPoolHistory";
import { listAttestationsOverlapping } from "../../src/storage/attestations";
import type { Store } from "../../src/storage/openStore";
import { POOL_HISTORY_MAX_DAYS, pruneDue, pruneStore } from "../../src/storage/retention";
import type { Database } from "../../src/storage/schema";
import { forEachBackend } from "../helpers/storage/backends";

const DAY = 86_400;
/** 2027-06-01 00:00 UTC. */
const NOW = Date.UTC(2027, 5, 1) / 1000;
const RETENTION = 90;
const POOL_A = { chainId: 1, address: "0x00000000000000000000000000000000000000aa" };
const POOL_B = { chainId: 1, address: "0x00000000000000000000000000000000000000bb" };

/** An attestation row of `pool` issued `daysAgo` days before NOW, with a claim of `horizon` days and a one-day life. */
function attestation(id: string, pool: typeof POOL_A, daysAgo: number, horizon = 7) {
  const issuedAt = NOW - daysAgo * DAY;
  return {
    id,
    chain_id: pool.chainId,
    address: pool.address,
    issued_at: issuedAt,
    expiry: issuedAt + DAY,
    horizon_days: horizon,
    confidence_hundredths: 90,
    canonical: `canonical ${id}`,
    signature: "0x",
    attester: "0x0000000000000000000000000000000000000001",
    floor: 0.5,
    depth_at_issuance_usd: 1_000_000,
    model: "test",
    inputs_hash: `0x${id}`,
    outcome: "pending",
    eip712_json: null,
    created_at: issuedAt,
  };
}

/** A store with old and recent rows of every table the prune touches (and some it must not). */
async function seed(db: Kysely<Database>): Promise<void> {
  const events = await db
    .insertInto("activity_events")
    .values(
      [200, 100, 95, 10].map((daysAgo) => ({
        kind: "pool.stale",
        at: NOW - daysAgo * DAY,
        chain_id: null,
        address: null,
        summary: `${daysAgo} days ago`,
        data_json: "{}",
      })),
    )
    .returning("id")
    .execute();
  const [e200, e100, e95, e10] = events.map((row) => Number(row.id)).sort((a, b) => a - b);
  await db
    .insertInto("alert_subscriptions")
    .values({
      id: "sub",
      owner: "key:k1",
      account: "key:k1",
      url: "https://example.com/hook",
      secret: "whsec_x",
      state: "active",
      created_at: NOW - 300 * DAY,
      paused_at: null,
      paused_reason: null,
      last_error: null,
      last_error_at: null,
      last_delivered_at: null,
    })
    .execute();
  const outbox = [
    { event_id: e200, status: "delivered" as const, attempts: 1 },
    { event_id: e100, status: "failed" as const, attempts: 3 },
    { event_id: e95, status: "pending" as const, attempts: 2 }, // old but not final: kept
    { event_id: e10, status: "delivered" as const, attempts: 1 }, // final but recent: kept
  ];
  for (const row of outbox) {
    const { id } = await db
      .insertInto("alert_outbox")
      .values({ subscription_id: "sub", ...row, next_attempt_at_ms: 0 })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (let attempt = 1; attempt <= row.attempts; attempt++) {
      await db
        .insertInto("alert_attempts")
        .values({
          outbox_id: Number(id),
          attempt,
          started_at_ms: 0,
          duration_ms: 5,
          status_code: 500,
          ok: 0,
          error: null,
          worker: "w",
        })
        .execute();
    }
  }
  await db
    .insertInto("idempotency_keys")
    .values(
      [120, 91, 89, 1].map((daysAgo) => ({
        api_key_id: "k1",
        idempotency_key: `key-${daysAgo}`,
        request_sha256: "00",
        status: 201,
        response_json: "{}",
        created_at: NOW - daysAgo * DAY,
      })),
    )
    .execute();
  await db
    .insertInto("attestations")
    .values([
      attestation("a900", POOL_A, 900), // superseded, but an accuracy record names it: kept
      attestation("a800", POOL_A, 800), // superseded, expired, settled before the history window: pruned
      attestation("a745", POOL_A, 745, 30), // its claim window reaches into the 730-day history: kept
      attestation("a200", POOL_A, 200), // older than the retention, but inside the history window: kept
      attestation("a1", POOL_A, 1), // the pool's latest
      attestation("b800", POOL_B, 800), // old, expired, but its pool's latest: kept
    ])
    .execute();
  await db
    .insertInto("accuracy_records")
    .values({
      attestation_id: "a900",
      chain_id: POOL_A.chainId,
      address: POOL_A.address,
      issued_at: NOW - 900 * DAY,
      issued_day: new Date((NOW - 900 * DAY) * 1000).toISOString().slice(0, 10),
      horizon_days: 7,
      confidence_hundredths: 90,
      floor_usd: 1,
      outcome: "held",
      lowest_depth_usd: 2,
      lowest_depth_date: new Date((NOW - 899 * DAY) * 1000).toISOString().slice(0, 10),
      graded_at: NOW,
    })
    .execute();
  await db
    .insertInto("ingest_runs")
    .values([
      ...[200, 150, 120, 100, 91].map((daysAgo) => ({
        id: `old-${daysAgo}`,
        started_at: NOW - daysAgo * DAY - 60,
        finished_at: NOW - daysAgo * DAY,
        status: "ok" as const,
        sources_json: "{}",
      })),
      { id: "running", started_at: NOW - 200 * DAY, finished_at: null, status: "running" as const, sources_json: "{}" },
      {
        id: "recent",
        started_at: NOW - DAY,
        finished_at: NOW - DAY + 30,
        status: "failed" as const,
        sources_json: "{}",
      },
    ])
    .execute();
  await db
    .insertInto("sessions")
    .values([
      { id_sha256: "expired", address: "0x01", chain_id: 1, created_at: NOW - 2 * DAY, expires_at: NOW - DAY },
      { id_sha256: "live", address: "0x01", chain_id: 1, created_at: NOW - 60, expires_at: NOW + DAY },
    ])
    .execute();
  await db
    .insertInto("siwe_nonces")
    .values([
      { nonce: "expired", created_at: NOW - 600, expires_at: NOW - 300 },
      { nonce: "live", created_at: NOW - 60, expires_at: NOW + 240 },
    ])
    .execute();
  await db
    .insertInto("pool_daily")
    .values({
      ...{ chain_id: POOL_A.chainId, address: POOL_A.address, day: "2024-01-01" },
      ...{ min_depth_usd: 1, min_observed_at: NOW - 900 * DAY, min_block: null, last_observed_at: NOW - 900 * DAY },
      samples: 1,
    })
    .execute();
}

async function ids(db: Kysely<Database>, table: "attestations" | "ingest_runs"): Promise<string[]> {
  return (await db.selectFrom(table).select("id").orderBy("id").execute()).map((row) => row.id);
}

describe("pruneStore (retention)", function () {
  it("keeps every attestation the pool history can show: its window is the history route's maximum", function () {
    expect(POOL_HISTORY_MAX_DAYS).to.equal(POOL_HISTORY_PARAMETERS.days.maximum);
  });

  it("runs once a day: due when never run in this process, then a day after the last run", function () {
    expect(pruneDue({ now: NOW, lastPrunedAt: null })).to.equal(true);
    expect(pruneDue({ now: NOW, lastPrunedAt: NOW - DAY + 1 })).to.equal(false);
    expect(pruneDue({ now: NOW, lastPrunedAt: NOW - DAY })).to.equal(true);
    expect(pruneDue({ now: NOW, lastPrunedAt: NOW - 3599, everyS: 3600 })).to.equal(false);
  });

  forEachBackend((openFresh) => {
    let store: Store;
    beforeEach(async function () {
      this.timeout(60_000);
      store = await openFresh();
      await seed(store.db);
    });
    afterEach(async () => store.close());

    it("deletes what has served its purpose, in batches, and keeps the rest", async function () {
      const historyFrom = NOW - (POOL_HISTORY_MAX_DAYS + 1) * DAY;
      const shown = await listAttestationsOverlapping(store.db, { ...POOL_A, from: historyFrom, to: NOW + 1 });
      const counts = await pruneStore(store.db, { now: NOW, retentionDays: RETENTION, batchSize: 2 });
      expect(counts).to.deep.equal({
        alert_attempts: 4,
        alert_outbox: 2,
        idempotency_keys: 2,
        attestations: 1,
        ingest_runs: 5,
        sessions: 1,
        siwe_nonces: 1,
      });
      const outbox = await store.db.selectFrom("alert_outbox").select(["status", "attempts"]).orderBy("id").execute();
      expect(outbox).to.deep.equal([
        { status: "pending", attempts: 2 },
        { status: "delivered", attempts: 1 },
      ]);
      const attempts = await store.db.selectFrom("alert_attempts").select("outbox_id").execute();
      expect(attempts).to.have.length(3);
      const keys = await store.db
        .selectFrom("idempotency_keys")
        .select("idempotency_key")
        .orderBy("created_at")
        .execute();
      expect(keys.map((row) => row.idempotency_key)).to.deep.equal(["key-89", "key-1"]);
      expect(await ids(store.db, "attestations")).to.deep.equal(["a1", "a200", "a745", "a900", "b800"]);
      // The history route's widest window shows exactly what it showed before.
      const after = await listAttestationsOverlapping(store.db, { ...POOL_A, from: historyFrom, to: NOW + 1 });
      expect(after.map((row) => row.id)).to.deep.equal(shown.map((row) => row.id));
      expect(await ids(store.db, "ingest_runs")).to.deep.equal(["recent", "running"]);
      expect(
        (await store.db.selectFrom("sessions").select("id_sha256").execute()).map((r) => r.id_sha256),
      ).to.deep.equal(["live"]);
      expect((await store.db.selectFrom("siwe_nonces").select("nonce").execute()).map((r) => r.nonce)).to.deep.equal([
        "live",
      ]);
      // The public activity log and the daily history are kept forever.
      expect(await store.db.selectFrom("activity_events").select("id").execute()).to.have.length(4);
      expect(await store.db.selectFrom("pool_daily").select("day").execute()).to.have.length(1);
    });

    it("deletes nothing more when run again, and prunes by age only past the retention given", async function () {
      await pruneStore(store.db, { now: NOW, retentionDays: RETENTION });
      const again = await pruneStore(store.db, { now: NOW, retentionDays: RETENTION });
      expect(Object.values(again)).to.deep.equal([0, 0, 0, 0, 0, 0, 0]);
      // A longer retention keeps the runs the default one would prune.
      const fresh = await openFresh();
      await seed(fresh.db);
      const counts = await pruneStore(fresh.db, { now: NOW, retentionDays: 365 });
      expect(counts.ingest_runs).to.equal(0);
      expect(counts.idempotency_keys).to.equal(0);
      expect(counts.alert_outbox).to.equal(0);
      expect(counts.attestations).to.equal(1); // a800 settled before the 730-day history window either way
      await fresh.close();
    });

    it("refuses a retention or a batch size that is not a positive integer", async function () {
      for (const parameters of [
        { now: NOW, retentionDays: 0 },
        { now: NOW, retentionDays: 1.5 },
        { now: NOW, retentionDays: 90, batchSize: 0 },
        { now: Number.NaN, retentionDays: 90 },
      ]) {
        let error: unknown;
        try {
          await pruneStore(store.db, parameters);
        } catch (caught) {
          error = caught;
        }
        expect(error, JSON.stringify(parameters)).to.be.instanceOf(RangeError);
      }
      expect(await store.db.selectFrom("ingest_runs").select("id").execute()).to.have.length(7); // nothing deleted
    });
  });
});
