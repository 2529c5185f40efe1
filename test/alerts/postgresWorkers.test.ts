import { expect } from "chai";
import { createSubscription } from "../../src/alerts/createSubscription";
import { startAlertWorker, type AlertWorker } from "../../src/alerts/startAlertWorker";
import { appendActivity, type NewActivity } from "../../src/storage/activity";
import { openStore, type Store } from "../../src/storage/openStore";
import { freshPostgresUrl } from "../../testkit/postgres";
import { startReceiver, waitFor, type Receiver } from "../helpers/alerts/receiver";

describe("alerts: two workers over one PostgreSQL database", function () {
  let url: string;
  let stores: Store[] = [];
  let receiver: Receiver;

  before(async function () {
    this.timeout(60_000);
    url = await freshPostgresUrl();
    // A short pause per answer keeps attempts in flight while the other worker claims.
    receiver = await startReceiver(() => ({ status: 200, delayMs: 5 }));
  });
  after(async () => {
    for (const store of stores) await store.close();
    await receiver?.close();
  });

  it("never sends a row twice in one attempt: each delivery arrives once, each row has one attempt", async function () {
    this.timeout(120_000);
    // Two connection pools, as two service processes would have.
    stores = [await openStore({ databaseUrl: url }), await openStore({ databaseUrl: url })];
    const db = stores[0].db;
    const subscriptions: Awaited<ReturnType<typeof createSubscription>>[] = [];
    for (let i = 0; i < 12; i++) {
      subscriptions.push(
        await createSubscription({
          db,
          owner: `key:k${i}`,
          url: `${receiver.url}?s=${i}`,
          kinds: ["pool.stale", "pool.fresh"],
          allowPrivateTargets: true,
        }),
      );
    }
    const events = Array.from({ length: 15 }, (_, n): NewActivity => ({
      kind: n % 2 ? "pool.stale" : "pool.fresh",
      at: 1_767_225_600 + n,
      summary: `e${n}`,
      data: { n },
    }));
    const ids = await appendActivity(db, events);
    const byWorker = new Map<string, number>();
    const workers: AlertWorker[] = ["w1", "w2"].map((workerId, i) =>
      startAlertWorker({
        db: stores[i].db,
        retryScheduleS: [0.05],
        allowPrivateTargets: true,
        pollIntervalMs: 10,
        concurrency: 4,
        workerId,
        onOutcome: () => byWorker.set(workerId, (byWorker.get(workerId) ?? 0) + 1),
      }),
    );
    try {
      await waitFor(() => receiver.received.length >= 12 * 15, "every delivery", 90_000);
      // Any duplicate would arrive within a poll or two: give it the time before counting.
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      for (const worker of workers) await worker.stop();
    }
    const received = receiver.received.map((r) => r.headers["webhook-id"] as string);
    const expected = subscriptions.flatMap((s) => ids.map((id) => `msg_${id}_${s.id}`));
    expect(received).to.have.length(expected.length);
    expect([...received].sort()).to.deep.equal([...expected].sort());
    const attempts = await db
      .selectFrom("alert_attempts")
      .select((eb) => ["outbox_id", eb.fn.countAll<number>().as("n")])
      .groupBy("outbox_id")
      .execute();
    expect(attempts).to.have.length(expected.length);
    expect(attempts.every((row) => Number(row.n) === 1)).to.equal(true);
    const outcomes = [...byWorker.values()].reduce((a, b) => a + b, 0);
    expect(outcomes).to.equal(expected.length);
    // Per subscription, events arrived in event order, whichever worker sent them.
    for (const s of subscriptions) {
      expect(received.filter((id) => id.endsWith(`_${s.id}`))).to.deep.equal(ids.map((id) => `msg_${id}_${s.id}`));
    }
    console.log(`      (attempts by worker: ${[...byWorker.entries()].map(([w, n]) => `${w} ${n}`).join(", ")})`);
  });
});
