import { expect } from "chai";
import type { ActivityKind } from "../../src/model/activityKinds";
import { appendActivity, type NewActivity } from "../../src/storage/activity";
import { insertAlertAttempt, listAlertAttempts } from "../../src/storage/alertAttempts";
import {
  claimAlertDelivery,
  countAlertDeliveries,
  finishAlertAttempt,
  listAlertOutbox,
  listDueAlertDeliveries,
  releaseAlertDelivery,
  webhookIdOf,
} from "../../src/storage/alertOutbox";
import {
  deleteAlertSubscription,
  insertAlertSubscription,
  listAlertSubscriptions,
  pauseAlertSubscription,
  resumeAlertSubscription,
} from "../../src/storage/alertSubscriptions";
import { type Store } from "../../src/storage/openStore";
import { forEachBackend } from "../helpers/storage/backends";

const T = 1_767_225_600;
const event = (kind: ActivityKind, n = 0): NewActivity => ({ kind, at: T + n, summary: `${kind} #${n}`, data: { n } });

async function subscribe(store: Store, id: string, kinds: string[], owner = "key:k1"): Promise<void> {
  await store.db.transaction().execute((trx) =>
    insertAlertSubscription(trx, {
      id,
      owner,
      account: owner,
      url: "https://hooks.example.com/",
      secret: "whsec_AAAA",
      kinds,
      now: T,
    }),
  );
}

/** The alert tables behave the same on both dialects. */
function alertStorageSuite(open: () => Promise<Store>) {
  let store: Store;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(async () => {
    await store.close();
  });

  describe("the outbox written by appendActivity", () => {
    it("queues one row per (event, active subscription that wants its kind), due at once, and none for others", async () => {
      await subscribe(store, "s-stale", ["pool.stale"]);
      await subscribe(store, "s-both", ["pool.stale", "attestation.issued"]);
      await subscribe(store, "s-paused", ["pool.stale"]);
      await pauseAlertSubscription(store.db, { id: "s-paused", at: T, reason: "test" });
      const ids = await store.db
        .transaction()
        .execute((trx) =>
          appendActivity(trx, [event("pool.stale", 1), event("ingest.pass", 2), event("attestation.issued", 3)]),
        );
      const stale = await listAlertOutbox(store.db, "s-stale");
      const both = await listAlertOutbox(store.db, "s-both");
      expect(stale.map((row) => row.event_id)).to.deep.equal([ids[0]]);
      expect(both.map((row) => row.event_id)).to.deep.equal([ids[0], ids[2]]);
      expect(await listAlertOutbox(store.db, "s-paused")).to.deep.equal([]);
      for (const row of [...stale, ...both]) {
        expect(row).to.include({ status: "pending", attempts: 0, next_attempt_at_ms: 0, lease_token: null });
      }
    });

    it("queues a subscription limited to one pool only the events about that pool (any case of its address)", async () => {
      const pool = { chainId: 1, address: "0xA000000000000000000000000000000000000001" };
      await store.db.transaction().execute((trx) =>
        insertAlertSubscription(trx, {
          id: "s-one",
          owner: "key:k1",
          account: "key:k1",
          url: "https://hooks.example.com/",
          secret: "whsec_AAAA",
          kinds: ["pool.stale", "ingest.pass"],
          now: T,
          pool,
        }),
      );
      await subscribe(store, "s-all", ["pool.stale", "ingest.pass"]);
      const other = { chainId: 1, address: "0xb000000000000000000000000000000000000002" };
      const sameAddressOtherChain = { chainId: 8453, address: pool.address };
      const ids = await store.db
        .transaction()
        .execute((trx) =>
          appendActivity(trx, [
            { ...event("pool.stale", 1), pool: other },
            { ...event("pool.stale", 2), pool: { chainId: 1, address: pool.address.toLowerCase() } },
            { ...event("pool.stale", 3), pool: sameAddressOtherChain },
            event("ingest.pass", 4),
          ]),
        );
      expect((await listAlertOutbox(store.db, "s-one")).map((row) => row.event_id)).to.deep.equal([ids[1]]);
      expect((await listAlertOutbox(store.db, "s-all")).map((row) => row.event_id)).to.deep.equal(ids);
    });

    it("a transaction that fails leaves neither the event nor its outbox row", async () => {
      await subscribe(store, "s1", ["pool.stale"]);
      const before = await store.db.selectFrom("activity_events").select("id").execute();
      let thrown: unknown;
      try {
        await store.db.transaction().execute(async (trx) => {
          await appendActivity(trx, [event("pool.stale", 1)]);
          expect(await listAlertOutbox(trx, "s1")).to.have.length(1); // written inside the transaction…
          throw new Error("the change failed");
        });
      } catch (error) {
        thrown = error;
      }
      expect((thrown as Error).message).to.equal("the change failed");
      expect(await store.db.selectFrom("activity_events").select("id").execute()).to.deep.equal(before);
      expect(await listAlertOutbox(store.db, "s1")).to.deep.equal([]); // …and gone with it
    });

    it("appends with no subscriptions and with no events at all", async () => {
      expect(await appendActivity(store.db, [])).to.deep.equal([]);
      const [id] = await appendActivity(store.db, [event("pool.fresh")]);
      expect(id).to.be.a("number");
      const rows = await store.db.selectFrom("alert_outbox").selectAll().execute();
      expect(rows).to.deep.equal([]);
    });
  });

  describe("claiming", () => {
    it("lists only each subscription's head: its oldest pending row, and only when due", async () => {
      await subscribe(store, "a", ["pool.stale"]);
      await subscribe(store, "b", ["pool.stale"]);
      const ids = await appendActivity(store.db, [
        event("pool.stale", 1),
        event("pool.stale", 2),
        event("pool.stale", 3),
      ]);
      let due = await listDueAlertDeliveries(store.db, { nowMs: 1000, limit: 10 });
      expect(due.map((d) => [d.subscription_id, d.event_id]).sort()).to.deep.equal([
        ["a", ids[0]],
        ["b", ids[0]],
      ]);
      expect(due[0].event).to.include({ kind: "pool.stale", summary: "pool.stale #1", data_json: '{"n":1}' });
      expect(due[0].url).to.equal("https://hooks.example.com/");
      // a's head fails and waits for a retry: a's later rows wait behind it; b's head is delivered, its next is due.
      const headA = due.find((d) => d.subscription_id === "a")!;
      const headB = due.find((d) => d.subscription_id === "b")!;
      for (const [head, token] of [
        [headA, "wa"],
        [headB, "wb"],
      ] as const) {
        expect(await claimAlertDelivery(store.db, { id: head.id, attempts: 0, token, nowMs: 1000, leaseMs: 5000 })).to
          .be.true;
      }
      const retry = { lastStatus: 500, lastError: "HTTP 500", deliveredAtMs: null };
      expect(
        await finishAlertAttempt(store.db, {
          id: headA.id,
          token: "wa",
          status: "pending",
          nextAttemptAtMs: 9000,
          ...retry,
        }),
      ).to.be.true;
      expect(
        await finishAlertAttempt(store.db, {
          id: headB.id,
          token: "wb",
          status: "delivered",
          nextAttemptAtMs: 1000,
          lastStatus: 200,
          lastError: null,
          deliveredAtMs: 1000,
        }),
      ).to.be.true;
      due = await listDueAlertDeliveries(store.db, { nowMs: 2000, limit: 10 });
      expect(due.map((d) => [d.subscription_id, d.event_id])).to.deep.equal([["b", ids[1]]]);
      due = await listDueAlertDeliveries(store.db, { nowMs: 9000, limit: 10 });
      expect(due.map((d) => [d.subscription_id, d.event_id, d.attempts]).sort()).to.deep.equal([
        ["a", ids[0], 1],
        ["b", ids[1], 0],
      ]);
      const counts = await countAlertDeliveries(store.db, ["a", "b", "none"]);
      expect(counts.get("a")).to.deep.equal({ pending: 3, delivered: 0, failed: 0 });
      expect(counts.get("b")).to.deep.equal({ pending: 2, delivered: 1, failed: 0 });
      expect(counts.has("none")).to.equal(false);
    });

    it("one claim wins; a held row is not listed; a lapsed claim can be taken over and the old holder changes nothing", async () => {
      await subscribe(store, "a", ["pool.stale"]);
      await appendActivity(store.db, [event("pool.stale")]);
      const [head] = await listDueAlertDeliveries(store.db, { nowMs: 0, limit: 10 });
      const claim = (token: string, nowMs: number) =>
        claimAlertDelivery(store.db, { id: head.id, attempts: 0, token, nowMs, leaseMs: 1000 });
      expect(await claim("w1", 0)).to.equal(true);
      expect(await claim("w2", 500)).to.equal(false);
      expect(await listDueAlertDeliveries(store.db, { nowMs: 500, limit: 10 })).to.deep.equal([]);
      expect(await listDueAlertDeliveries(store.db, { nowMs: 1000, limit: 10 })).to.have.length(1);
      expect(await claim("w2", 1000)).to.equal(true);
      const finish = (token: string) =>
        finishAlertAttempt(store.db, {
          id: head.id,
          token,
          status: "delivered",
          nextAttemptAtMs: 1000,
          lastStatus: 204,
          lastError: null,
          deliveredAtMs: 1000,
        });
      expect(await finish("w1")).to.equal(false);
      expect(await finish("w2")).to.equal(true);
      const [row] = await listAlertOutbox(store.db, "a");
      expect(row).to.include({ status: "delivered", attempts: 1, lease_token: null, last_status: 204 });
      expect(await claim("w3", 5000)).to.equal(false); // delivered rows are never claimed again
    });

    it("a claim with stale attempts or on a paused subscription fails; a released row is due again uncounted", async () => {
      await subscribe(store, "a", ["pool.stale"]);
      await appendActivity(store.db, [event("pool.stale")]);
      const [head] = await listDueAlertDeliveries(store.db, { nowMs: 0, limit: 10 });
      expect(await claimAlertDelivery(store.db, { id: head.id, attempts: 3, token: "w", nowMs: 0, leaseMs: 1000 })).to
        .be.false;
      await pauseAlertSubscription(store.db, { id: "a", at: T, reason: "test" });
      expect(await claimAlertDelivery(store.db, { id: head.id, attempts: 0, token: "w", nowMs: 0, leaseMs: 1000 })).to
        .be.false;
      expect(await listDueAlertDeliveries(store.db, { nowMs: 0, limit: 10 })).to.deep.equal([]);
      expect(await resumeAlertSubscription(store.db, { owner: "key:k1", id: "a" })).to.equal("resumed");
      expect(await claimAlertDelivery(store.db, { id: head.id, attempts: 0, token: "w", nowMs: 0, leaseMs: 1000 })).to
        .be.true;
      await releaseAlertDelivery(store.db, { id: head.id, token: "w" });
      const [again] = await listDueAlertDeliveries(store.db, { nowMs: 1, limit: 10 });
      expect(again).to.include({ id: head.id, attempts: 0 });
    });
  });

  describe("attempts and subscriptions", () => {
    it("records each attempt once: a second record of the same attempt number is refused", async () => {
      await subscribe(store, "a", ["pool.stale"]);
      await appendActivity(store.db, [event("pool.stale")]);
      const [row] = await listAlertOutbox(store.db, "a");
      const attempt = {
        outbox_id: row.id,
        attempt: 1,
        started_at_ms: 5,
        duration_ms: 3,
        status_code: 500,
        ok: 0,
        error: "HTTP 500",
        worker: "w",
      };
      await insertAlertAttempt(store.db, attempt);
      let thrown: unknown;
      await insertAlertAttempt(store.db, attempt).catch((error) => (thrown = error));
      expect(thrown).to.be.instanceOf(Error);
      expect((await listAlertAttempts(store.db, row.id)).map((a) => a.attempt)).to.deep.equal([1]);
    });

    it("scopes every change by owner; deleting drops the kinds, the outbox rows and their attempts", async () => {
      await subscribe(store, "mine", ["pool.stale", "pool.fresh"], "key:k1");
      await subscribe(store, "theirs", ["pool.stale"], "wallet:0x00000000000000000000000000000000000000aa");
      await appendActivity(store.db, [event("pool.stale")]);
      const [row] = await listAlertOutbox(store.db, "mine");
      await insertAlertAttempt(store.db, {
        outbox_id: row.id,
        attempt: 1,
        started_at_ms: 1,
        duration_ms: 1,
        status_code: null,
        ok: 0,
        error: "x",
        worker: "w",
      });
      const listed = await listAlertSubscriptions(store.db, "key:k1");
      expect(listed.map((s) => [s.id, s.kinds])).to.deep.equal([["mine", ["pool.stale", "pool.fresh"]]]);
      expect(listed[0]).to.not.have.property("secret");
      expect(await deleteAlertSubscription(store.db, { owner: "key:k1", id: "theirs" })).to.equal(false);
      expect(await resumeAlertSubscription(store.db, { owner: "key:k1", id: "theirs" })).to.equal("not-found");
      expect(await deleteAlertSubscription(store.db, { owner: "key:k1", id: "mine" })).to.equal(true);
      expect(await listAlertOutbox(store.db, "mine")).to.deep.equal([]);
      expect(await listAlertAttempts(store.db, row.id)).to.deep.equal([]);
      const kinds = await store.db.selectFrom("alert_subscription_kinds").select("subscription_id").execute();
      expect(kinds.map((k) => k.subscription_id)).to.deep.equal(["theirs"]);
      expect(webhookIdOf(row.event_id, "mine")).to.equal(`msg_${row.event_id}_mine`);
    });
  });
}

describe("alert storage", function () {
  forEachBackend(alertStorageSuite);
});
