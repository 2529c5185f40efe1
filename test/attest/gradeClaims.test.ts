import { expect } from "chai";
import type { Kysely } from "kysely";
import type { Hex } from "viem";
import { gradeClaims } from "../../src/attest/gradeClaims";
import { issueAttestations } from "../../src/attest/issueAttestations";
import { createLocalSigner } from "../../src/attest/signer";
import { countPendingClaims, listAccuracyRecords } from "../../src/storage/accuracyRecords";
import { listActivity } from "../../src/storage/activity";
import { getLatestAttestation } from "../../src/storage/attestations";
import { openStore, type Store } from "../../src/storage/openStore";
import { backfillDailyDepth, recordDailyDepth } from "../../src/storage/poolDaily";
import type { AttestationRow, Database } from "../../src/storage/schema";
import { DAY, NOW, POOL, START, seedSteadyPool } from "../helpers/attest/steadyPool";
import { freshPostgresUrl, sharedPostgres } from "../../testkit/postgres";
import { openTempStore, type TempStore } from "../helpers/storage/tempStore";

const KEY: Hex = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
/** 00:00 UTC of day `n` of the steady pool's history (day 40 is NOW's). */
const dayStart = (n: number) => Math.floor(START / DAY) * DAY + n * DAY;

/** Issues the pool's attestation at NOW (day 40) and returns it. */
async function issueAtNow(db: Kysely<Database>): Promise<AttestationRow> {
  await seedSteadyPool(db, { now: NOW });
  const outcomes = await issueAttestations({
    db,
    pools: [POOL],
    signer: createLocalSigner(KEY),
    lifetimeS: DAY,
    now: NOW,
    freshnessWindowS: 3600,
  });
  expect(outcomes.map((o) => o.action)).to.deep.equal(["issued"]);
  return (await getLatestAttestation(db, POOL.chainId, POOL.address))!;
}

/** Observed lows (on-chain, with a block) of days `from` … `to`: `low(day)`, or nothing where it answers null. */
async function observe(db: Kysely<Database>, from: number, to: number, low: (day: number) => number | null) {
  for (let day = from; day <= to; day++) {
    const depthUsd = low(day);
    if (depthUsd === null) continue;
    await recordDailyDepth(db, {
      chainId: POOL.chainId,
      address: POOL.address,
      depthUsd,
      observedAt: dayStart(day) + 3600,
      block: String(1000 + day),
    });
  }
}

for (const backend of ["SQLite", "PostgreSQL"] as const) {
  describe(`gradeClaims: the accuracy record (${backend})`, function () {
    let store: Store;
    let temp: TempStore | null = null;
    let url: string | null = null;
    before(async function () {
      this.timeout(60_000);
      if (backend === "PostgreSQL") await sharedPostgres();
    });
    beforeEach(async () => {
      if (backend === "PostgreSQL") {
        url = await freshPostgresUrl();
        store = await openStore({ databaseUrl: url });
      } else {
        temp = await openTempStore({ prefix: "grade-" });
        store = temp.store;
      }
    });
    afterEach(async () => {
      if (temp !== null) await temp.cleanup();
      else await store.close();
      temp = null;
    });

    it("grades nothing until the settle day is over, then held, with the window's lowest low, once", async () => {
      const claim = await issueAtNow(store.db);
      const h = Number(claim.horizon_days);
      expect(h).to.be.greaterThan(0);
      await observe(store.db, 41, 40 + h + 1, (day) => (day === 40 + h ? 600_000 : 900_000));
      // The settle day (40 + h) is still running: in-window evidence never settles early.
      expect(await gradeClaims(store.db, { now: dayStart(41 + h) - 1 })).to.deep.equal({ held: 0, failed: 0, void: 0 });
      expect(await countPendingClaims(store.db)).to.equal(1);
      // From 00:00 UTC of the next day it is final.
      expect(await gradeClaims(store.db, { now: dayStart(41 + h) })).to.deep.equal({ held: 1, failed: 0, void: 0 });
      const [record] = await listAccuracyRecords(store.db);
      expect(record).to.include({
        attestationId: claim.id,
        outcome: "held",
        horizonDays: h,
        floorUsd: Number(claim.floor) * Number(claim.depth_at_issuance_usd),
        lowestDepthUsd: 600_000,
        lowestDepthDate: new Date(dayStart(40 + h) * 1000).toISOString().slice(0, 10),
        issuedDay: new Date(NOW * 1000).toISOString().slice(0, 10),
      });
      expect(await countPendingClaims(store.db)).to.equal(0);
      // Idempotent: a later pass (or a restart) grades nothing again and writes no second event.
      expect(await gradeClaims(store.db, { now: dayStart(50 + h) })).to.deep.equal({ held: 0, failed: 0, void: 0 });
      const events = await listActivity(store.db, { kinds: ["claim.graded"], limit: 10, beforeId: null });
      expect(events.map((event) => event.kind)).to.deep.equal(["claim.graded"]);
      expect(JSON.parse(events[0].data_json)).to.include({
        attestationId: claim.id,
        outcome: "held",
        lowestDepthUsd: 600_000,
      });
    });

    it("fails on the first observed low below the floor, even with a later day unobserved", async () => {
      const claim = await issueAtNow(store.db);
      const h = Number(claim.horizon_days);
      const floorUsd = Number(claim.floor) * Number(claim.depth_at_issuance_usd);
      await observe(store.db, 41, 40 + h, (day) =>
        day === 42 ? floorUsd - 1 : day === 43 ? 1 : day === 44 ? null : 1e6,
      );
      expect(await gradeClaims(store.db, { now: dayStart(41 + h) })).to.deep.equal({ held: 0, failed: 1, void: 0 });
      const [record] = await listAccuracyRecords(store.db);
      expect(record).to.include({
        outcome: "failed",
        lowestDepthUsd: floorUsd - 1,
        lowestDepthDate: new Date(dayStart(42) * 1000).toISOString().slice(0, 10),
      });
    });

    it("is void when a window day has no observed low: a missing day, or only the feed's daily snapshot", async () => {
      const claim = await issueAtNow(store.db);
      const h = Number(claim.horizon_days);
      await observe(store.db, 41, 40 + h, (day) => (day === 43 ? null : 1e6));
      const day43 = new Date(dayStart(43) * 1000).toISOString().slice(0, 10);
      const added = await backfillDailyDepth(store.db, {
        chainId: POOL.chainId,
        address: POOL.address,
        points: [{ day: day43, depthUsd: 2e6, observedAt: dayStart(43) + 86_000 }],
      });
      expect(added).to.equal(1);
      expect(await gradeClaims(store.db, { now: dayStart(41 + h) })).to.deep.equal({ held: 0, failed: 0, void: 1 });
      const [record] = await listAccuracyRecords(store.db);
      expect(record).to.include({ outcome: "void", lowestDepthUsd: null, lowestDepthDate: null });
    });

    it("grades only the first attestation of a pool's UTC day: a re-issue that day is never graded", async () => {
      const claim = await issueAtNow(store.db);
      const h = Number(claim.horizon_days);
      // A re-issue later the same day, with a shorter horizon that settles first.
      await store.db
        .insertInto("attestations")
        .values({
          ...claim,
          id: `${claim.id.slice(0, -4)}beef`,
          issued_at: NOW + 600,
          horizon_days: 1,
          supersedes: claim.id,
        })
        .execute();
      await observe(store.db, 41, 40 + h, () => 1e6);
      // The re-issue's window has closed, the first's has not: nothing to grade.
      expect(await gradeClaims(store.db, { now: dayStart(43) })).to.deep.equal({ held: 0, failed: 0, void: 0 });
      expect(await countPendingClaims(store.db)).to.equal(1);
      expect(await gradeClaims(store.db, { now: dayStart(41 + h) })).to.deep.equal({ held: 1, failed: 0, void: 0 });
      expect((await listAccuracyRecords(store.db)).map((r) => r.attestationId)).to.deep.equal([claim.id]);
    });

    if (backend === "PostgreSQL") {
      it("two leaders grading at once write each grade once, with one event", async () => {
        const claim = await issueAtNow(store.db);
        const h = Number(claim.horizon_days);
        await observe(store.db, 41, 40 + h, () => 1e6);
        const other = await openStore({ databaseUrl: url! });
        try {
          const results = await Promise.all([
            gradeClaims(store.db, { now: dayStart(41 + h) }),
            gradeClaims(other.db, { now: dayStart(41 + h) }),
          ]);
          expect(results.map((r) => r.held).sort()).to.deep.equal([0, 1]);
        } finally {
          await other.close();
        }
        expect(await listAccuracyRecords(store.db)).to.have.length(1);
        expect(await listActivity(store.db, { kinds: ["claim.graded"], limit: 10, beforeId: null })).to.have.length(1);
      });
    }
  });
}
