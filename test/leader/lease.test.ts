import { expect } from "chai";
import { sql } from "kysely";
import { LeaseLostError } from "../../src/errors/lease";
import {
  acquireLease,
  assertFence,
  assertLease,
  readLease,
  releaseLease,
  renewLease,
} from "../../src/storage/leaderLease";
import { openStore, type Store } from "../../src/storage/openStore";
import { countIngestRuns, startIngestRun } from "../../src/storage/ingestRuns";
import { waitFor } from "../helpers/alerts/receiver";
import { freshPostgresUrl, sharedPostgres } from "../../testkit/postgres";
import { rejection } from "../helpers/rejection";
import { openTempStore, type TempStore } from "../helpers/storage/tempStore";

const T = 1_800_000_000_000; // Unix ms
const TTL = 30_000;
const lease = (holder: string, nowMs: number, steal = false) => ({ name: "ingest", holder, ttlMs: TTL, nowMs, steal });

describe("leader lease on PostgreSQL: two processes (two stores) on one database", function () {
  let a: Store;
  let b: Store;
  before(async function () {
    this.timeout(60_000);
    await sharedPostgres();
  });
  beforeEach(async () => {
    const url = await freshPostgresUrl();
    a = await openStore({ databaseUrl: url });
    b = await openStore({ databaseUrl: url });
  });
  afterEach(async () => {
    await a.close();
    await b.close();
  });

  it("lets only one acquire; the standby takes over after expiry with a higher epoch, and the old holder's renewal fails", async () => {
    const held = await acquireLease(a.db, lease("a", T));
    expect(held).to.deep.equal({ name: "ingest", holder: "a", epoch: 1, expiresAt: T + TTL });
    expect(await acquireLease(b.db, lease("b", T + 1))).to.equal(null);
    expect(await acquireLease(b.db, lease("b", T + TTL - 1))).to.equal(null);
    const renewed = await renewLease(a.db, { hold: held!, ttlMs: TTL, nowMs: T + 10_000 });
    expect(renewed).to.deep.include({ epoch: 1, expiresAt: T + 10_000 + TTL });
    expect(await acquireLease(b.db, lease("b", T + TTL + 1))).to.equal(null);

    const taken = await acquireLease(b.db, lease("b", T + 10_000 + TTL));
    expect(taken).to.deep.include({ holder: "b", epoch: 2 });
    expect(await renewLease(a.db, { hold: held!, ttlMs: TTL, nowMs: T + 50_000 })).to.equal(null);
    expect(await readLease(a.db, "ingest")).to.deep.include({ holder: "b", epoch: 2 });
  });

  it("a released lease is taken at once; a holder restarted under the same INSTANCE_ID takes its own lease back", async () => {
    const held = (await acquireLease(a.db, lease("a", T)))!;
    await releaseLease(a.db, held);
    expect(await acquireLease(b.db, lease("b", T + 1))).to.deep.include({ holder: "b", epoch: 2 });
    expect(await acquireLease(a.db, lease("b", T + 2))).to.deep.include({ holder: "b", epoch: 3 });
  });

  it("fences: a write transaction of the old holder throws LeaseLostError and commits nothing", async () => {
    const held = (await acquireLease(a.db, lease("a", T)))!;
    await acquireLease(b.db, lease("b", T + 1, true));
    const error = await rejection(
      a.db.transaction().execute(async (trx) => {
        await assertFence(trx, { lease: held, nowMs: () => T + 2 });
        await startIngestRun(trx, { id: "never", startedAt: 1 });
      }),
    );
    expect(error).to.be.instanceOf(LeaseLostError);
    expect((error as LeaseLostError).code).to.equal("LEASE_LOST");
    expect((error as LeaseLostError).shortMessage).to.match(/b holds it now \(epoch 2\)/);
    expect(await countIngestRuns(a.db)).to.equal(0);
  });

  it("fences: an expired lease fails the check even before anyone takes it over", async () => {
    const held = (await acquireLease(a.db, lease("a", T)))!;
    const error = await rejection(a.db.transaction().execute((trx) => assertLease(trx, held, T + TTL)));
    expect((error as LeaseLostError).shortMessage).to.match(/expired/);
  });

  it("a takeover waits for the holder's fenced transaction in progress, and then sees everything it committed", async () => {
    const held = (await acquireLease(a.db, lease("a", T)))!;
    let takeover: Promise<unknown> | null = null;
    await a.db.transaction().execute(async (trx) => {
      await assertLease(trx, held, T + 1);
      takeover = acquireLease(b.db, lease("b", T + 2, true));
      // The takeover's UPDATE is blocked on the lease row this transaction holds FOR SHARE.
      await waitFor(async () => {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_locks where not granted`.execute(
          a.db,
        );
        return rows[0].n > 0;
      }, "the takeover to wait for the lease row");
      await startIngestRun(trx, { id: "committed-under-a", startedAt: 1 });
    });
    expect(await takeover).to.deep.include({ holder: "b", epoch: 2 });
    expect(await countIngestRuns(b.db)).to.equal(1);
  });
});

describe("leader lease on SQLite (one process owns the store)", () => {
  let temp: TempStore;
  let store: Store;
  beforeEach(async () => {
    temp = await openTempStore({ prefix: "lease-" });
    store = temp.store;
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  it("acquires, refuses a second holder, takes over with steal (a lease left by a killed process), and fences the old one", async () => {
    const held = (await acquireLease(store.db, lease("old", T)))!;
    expect(await acquireLease(store.db, lease("new", T + 1))).to.equal(null);
    const stolen = await acquireLease(store.db, lease("new", T + 1, true));
    expect(stolen).to.deep.include({ holder: "new", epoch: 2 });
    const error = await rejection(store.db.transaction().execute((trx) => assertLease(trx, held, T + 2)));
    expect(error).to.be.instanceOf(LeaseLostError);
    await store.db.transaction().execute((trx) => assertLease(trx, stolen!, T + 2));
  });
});
