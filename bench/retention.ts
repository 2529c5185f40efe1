/**
 * The store's size after a simulated year, without and with retention (`pruneStore`, src/storage/retention.ts).
 *
 * Fills a SQLite store with `DAYS` days (default 365) of `PASSES_PER_DAY` passes (default 96: one every 15 min) over
 * 17 pools (`testkit/syntheticPass.ts`: every pool read on chain, swaps, yields, one Merkl campaign per
 * pool), each pass doing the store work `runIngestionPass` does: its `ingest_runs` row, `writePass`, `issueStep`
 * (attestations live one day, so each pool gets a new one a day), and its `ingest.pass` event. Beside the passes:
 * two alert subscriptions (`ingest.pass` and `attestation.issued`) whose deliveries all succeed at the first attempt,
 * 20 keyed writes a day with an `Idempotency-Key`, and 10 dapp sign-ins a day (a nonce and a one-day session).
 *
 * Prints the size of the store (bytes in use: pages minus free pages; the file after `VACUUM`) and the rows of
 * each table at the end of the simulated year without pruning, then after `pruneStore` at the year's end with the
 * default `RETENTION_DAYS` (90): what a daily prune keeps, since the policy is by age. Run with
 * `npm run bench:retention` (about 18 minutes here); `DAYS=30 npm run bench:retention` for a shorter run.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql, type Kysely } from "kysely";
import { ingestPassEvent } from "../src/ingest/rows/activityEvents";
import { appendActivity } from "../src/storage/activity";
import { finishIngestRun, startIngestRun } from "../src/storage/ingestRuns";
import { openStore } from "../src/storage/openStore";
import { pruneStore } from "../src/storage/retention";
import type { Database } from "../src/storage/schema";
import { runSyntheticPass, syntheticPassTime, syntheticPools } from "../testkit/syntheticPass";

const DAYS = Number(process.env.DAYS ?? 365);
const PASSES_PER_DAY = Number(process.env.PASSES_PER_DAY ?? 96);
const POOLS = 17;
const RETENTION_DAYS = 90;
const DAY = 86_400;

/** What a real pass reports per source (its `sources_json` and its event's data carry it). */
const SOURCES = {
  "chain:1": { ok: true, rows: 9 },
  "chain:8453": { ok: true, rows: 8 },
  "swaps:1": { ok: true, rows: 7 },
  "swaps:8453": { ok: true, rows: 6 },
  "defillama-coins": { ok: true, rows: 12 },
  "defillama-yields": { ok: true, rows: 17 },
  "defillama-dexs": { ok: true, rows: 60 },
  merkl: { ok: true, rows: 17 },
  issue: { ok: true, rows: 0 },
};

/** Two subscriptions, every delivery of which succeeds at its first attempt (as the alert worker would record it). */
async function subscribe(db: Kysely<Database>, now: number): Promise<void> {
  for (const [id, kind] of [
    ["sub-passes", "ingest.pass"],
    ["sub-claims", "attestation.issued"],
  ]) {
    await db
      .insertInto("alert_subscriptions")
      .values({
        ...{ id, owner: "key:ops", account: "key:ops", url: `https://ops.example/${id}`, secret: "whsec_bench" },
        ...{ state: "active", created_at: now, paused_at: null, paused_reason: null },
        ...{ last_error: null, last_error_at: null, last_delivered_at: null },
      })
      .execute();
    await db.insertInto("alert_subscription_kinds").values({ kind, subscription_id: id, position: 0 }).execute();
  }
}

/** Delivers every pending row: an attempt each (a 200 after 40 ms), then the row marked delivered. */
async function deliver(db: Kysely<Database>, nowMs: number): Promise<void> {
  const pending = await db.selectFrom("alert_outbox").select("id").where("status", "=", "pending").execute();
  if (pending.length === 0) return;
  await db
    .insertInto("alert_attempts")
    .values(
      pending.map(({ id }) => ({
        ...{ outbox_id: Number(id), attempt: 1, started_at_ms: nowMs, duration_ms: 40, status_code: 200, ok: 1 },
        ...{ error: null, worker: "bench-worker-1" },
      })),
    )
    .execute();
  await db
    .updateTable("alert_outbox")
    .set({ status: "delivered", attempts: 1, delivered_at_ms: nowMs, last_status: 200 })
    .where("status", "=", "pending")
    .execute();
}

/** A day's keyed writes and sign-ins (their answers are a stored request's JSON; sessions live a day). */
async function dayOfUsers(db: Kysely<Database>, day: number, now: number): Promise<void> {
  await db
    .insertInto("idempotency_keys")
    .values(
      Array.from({ length: 20 }, (_, i) => ({
        api_key_id: `key-${i % 4}`,
        idempotency_key: `${day}-${i}-2f1c9d0e-7a51-4b8e-9d3a-6c0f1e2b3a4d`,
        request_sha256: "9f".repeat(32),
        status: 201,
        response_json: JSON.stringify({
          request: { id: `req-${day}-${i}`, pool: "eip155:1:0x" + "ab".repeat(20), amountUsd: 250_000, days: 30 },
        }),
        created_at: now,
      })),
    )
    .execute();
  await db
    .insertInto("siwe_nonces")
    .values(
      Array.from({ length: 10 }, (_, i) => ({
        nonce: `n${day}x${i}Ab3dE5fG7h`,
        created_at: now,
        expires_at: now + 300,
      })),
    )
    .execute();
  await db
    .insertInto("sessions")
    .values(
      Array.from({ length: 10 }, (_, i) => ({
        ...{ id_sha256: `${day}-${i}`.padEnd(64, "0"), address: "0x" + (day * 10 + i).toString(16).padStart(40, "0") },
        ...{ chain_id: 1, created_at: now, expires_at: now + DAY },
      })),
    )
    .execute();
}

/** Bytes in use (pages − free pages), the row counts of the tables that grow, and the file after VACUUM. */
async function measure(
  db: Kysely<Database>,
  file: string,
): Promise<{ inUse: number; vacuumed: number; rows: Record<string, number> }> {
  const pragma = async (name: string) =>
    Number(Object.values((await sql.raw(`PRAGMA ${name}`).execute(db)).rows[0] as object)[0]);
  const inUse = ((await pragma("page_count")) - (await pragma("freelist_count"))) * (await pragma("page_size"));
  const rows: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    rows[table] = Number(row.n);
  }
  await sql`VACUUM`.execute(db);
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
  return { inUse, vacuumed: statSync(file).size, rows };
}

const TABLES = [
  "ingest_runs",
  "activity_events",
  "alert_outbox",
  "alert_attempts",
  "attestations",
  "idempotency_keys",
  "sessions",
  "siwe_nonces",
  "pool_daily",
  "pool_volume_daily",
  "pool_volume_hourly",
] as const;

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bench-retention-"));
  const file = join(dir, "service.sqlite");
  const store = await openStore({ file });
  const pools = syntheticPools(POOLS);
  const intervalS = DAY / PASSES_PER_DAY;
  const started = Date.now();
  try {
    await subscribe(store.db, syntheticPassTime(0, intervalS));
    for (let index = 0; index < DAYS * PASSES_PER_DAY; index++) {
      const now = syntheticPassTime(index, intervalS);
      const runId = `${now}-bench-${index}`;
      await startIngestRun(store.db, { id: runId, startedAt: now });
      await runSyntheticPass(store, { pools, index, intervalS });
      const event = { runId, status: "ok" as const, startedAt: now, finishedAt: now + 4, sources: SOURCES };
      await store.db.transaction().execute(async (trx) => {
        await finishIngestRun(trx, { id: runId, finishedAt: now + 4, status: "ok", sources: SOURCES });
        await appendActivity(trx, [ingestPassEvent({ ...event, observedPools: POOLS, issued: 0, instance: "bench" })]);
      });
      await deliver(store.db, (now + 10) * 1000);
      if (index % PASSES_PER_DAY === 0) {
        await dayOfUsers(store.db, index / PASSES_PER_DAY, now);
        if ((index / PASSES_PER_DAY) % 30 === 0) {
          process.stderr.write(`day ${index / PASSES_PER_DAY} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
        }
      }
    }
    const end = syntheticPassTime(DAYS * PASSES_PER_DAY, intervalS);
    const before = await measure(store.db, file);
    const pruneStarted = Date.now();
    const pruned = await pruneStore(store.db, { now: end, retentionDays: RETENTION_DAYS });
    const pruneMs = Date.now() - pruneStarted;
    const after = await measure(store.db, file);

    console.log(`### SQLite store after ${DAYS} days × ${PASSES_PER_DAY} passes, ${POOLS} pools`);
    console.log();
    console.log("| | without pruning | after pruneStore (RETENTION_DAYS=90) |");
    console.log("|---|---:|---:|");
    console.log(`| bytes in use | ${mb(before.inUse)} | ${mb(after.inUse)} |`);
    console.log(`| file after VACUUM | ${mb(before.vacuumed)} | ${mb(after.vacuumed)} |`);
    for (const table of TABLES) console.log(`| ${table} rows | ${before.rows[table]} | ${after.rows[table]} |`);
    console.log();
    console.log(
      `pruneStore deleted ${JSON.stringify(pruned)} in ${pruneMs} ms (a year's catch-up; a daily run deletes a day's worth).`,
    );
    console.log(`simulated in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
