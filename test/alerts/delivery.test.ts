import { expect } from "chai";
import { Webhook } from "standardwebhooks";
import { createSubscription } from "../../src/alerts/createSubscription";
import { deleteSubscription } from "../../src/alerts/deleteSubscription";
import { deliverDueAlerts, type AlertDeliveryContext } from "../../src/alerts/deliverAlert";
import { listSubscriptions } from "../../src/alerts/listSubscriptions";
import { resumeSubscription } from "../../src/alerts/resumeSubscription";
import { startAlertWorker } from "../../src/alerts/startAlertWorker";
import type { ActivityKind } from "../../src/model/activityKinds";
import { appendActivity, type NewActivity } from "../../src/storage/activity";
import { listAlertAttemptsOfSubscription } from "../../src/storage/alertAttempts";
import { listAlertOutbox } from "../../src/storage/alertOutbox";
import type { Store } from "../../src/storage/openStore";
import { openTempStore } from "../helpers/service/app";
import { testDeliveryContext } from "../helpers/alerts/deliveryContext";
import { startReceiver, waitFor, type Receiver } from "../helpers/alerts/receiver";

const OWNER = "key:test-key";
const event = (n: number, kind: ActivityKind = "pool.stale"): NewActivity => ({
  kind,
  at: 1_767_225_600 + n,
  pool: { chainId: 1, address: "0x00000000000000000000000000000000000000AB" },
  summary: `event ${n}`,
  data: { n },
});

describe("alert delivery (loopback receiver, real SQLite)", function () {
  let store: Store;
  let cleanup: () => Promise<void>;
  let receivers: Receiver[];

  beforeEach(async () => {
    ({ store, cleanup } = await openTempStore());
    receivers = [];
  });
  afterEach(async () => {
    for (const receiver of receivers) await receiver.close();
    await cleanup();
  });

  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const started = await startReceiver(...args);
    receivers.push(started);
    return started;
  };
  const subscribe = (url: string, kinds = ["pool.stale"], owner = OWNER) =>
    createSubscription({ db: store.db, owner, url, kinds, allowPrivateTargets: true });
  const context = (overrides: Partial<AlertDeliveryContext> = {}): AlertDeliveryContext =>
    testDeliveryContext(store.db, { retryScheduleS: [0.05, 0.1, 0.2], workerId: "test-worker", ...overrides });

  it("delivers each event with Standard Webhooks headers that the standardwebhooks verifier accepts", async function () {
    const target = await receiver();
    const { id, secret } = await subscribe(target.url, ["pool.stale", "attestation.issued"]);
    const ids = await appendActivity(store.db, [event(1), event(2, "ingest.pass"), event(3, "attestation.issued")]);
    const outcomes = await deliverDueAlerts(context());
    expect(outcomes.map((o) => o.result)).to.deep.equal(["delivered"]);
    await deliverDueAlerts(context());
    expect(target.received).to.have.length(2);
    const verifier = new Webhook(secret);
    for (const [i, request] of target.received.entries()) {
      const eventId = [ids[0], ids[2]][i];
      expect(request.headers["webhook-id"]).to.equal(`msg_${eventId}_${id}`);
      expect(request.headers["content-type"]).to.equal("application/json");
      expect(Number(request.headers["webhook-timestamp"])).to.be.closeTo(Date.now() / 1000, 60);
      expect(request.headers["webhook-signature"]).to.match(/^v1,[A-Za-z0-9+/]{43}=$/);
      const headers = request.headers as Record<string, string>;
      const verified = verifier.verify(request.body, headers) as Record<string, unknown>;
      expect(verified).to.include({ id: eventId, type: verified.kind });
      // Any change to the body, the id or the timestamp breaks the signature.
      expect(() => verifier.verify(request.body.replace("event", "EVENT"), headers)).to.throw(/signature/);
      expect(() => verifier.verify(request.body, { ...headers, "webhook-id": "msg_other" })).to.throw(/signature/);
    }
    expect(target.bodies()[0]).to.deep.equal({
      id: ids[0],
      kind: "pool.stale",
      at: 1_767_225_601,
      poolId: "eip155:1:0x00000000000000000000000000000000000000ab",
      summary: "event 1",
      data: { n: 1 },
      type: "pool.stale",
    });
    const [view] = await listSubscriptions({ db: store.db, owner: OWNER });
    expect(view.deliveries).to.deep.equal({ pending: 0, delivered: 2, failed: 0 });
    expect(view.lastDeliveredAt).to.be.a("number");
    expect(view.lastError).to.equal(null);
  });

  it("a receiver that fails, then recovers, gets every event, in order, each with the same webhook-id on every attempt", async function () {
    // The first three requests fail (500, 503, a redirect), then every request succeeds.
    const answers = [{ status: 500 }, { status: 503 }, { status: 302, headers: { location: "http://127.0.0.1:1/" } }];
    const target = await receiver((_request, n) => answers[n] ?? { status: 200 });
    const other = await receiver();
    const flaky = await subscribe(target.url);
    const steady = await subscribe(other.url);
    const ids = await appendActivity(
      store.db,
      [1, 2, 3, 4, 5].map((n) => event(n)),
    );
    const worker = startAlertWorker({
      db: store.db,
      retryScheduleS: [0.05, 0.05, 0.05, 0.05],
      allowPrivateTargets: true,
      pollIntervalMs: 20,
    });
    try {
      await waitFor(async () => {
        const views = await listSubscriptions({ db: store.db, owner: OWNER });
        return views.every((view) => view.deliveries.delivered === 5);
      }, "every event delivered to both receivers");
    } finally {
      await worker.stop();
    }
    const idsOf = (r: Receiver) => r.received.map((request) => request.headers["webhook-id"]);
    // Attempts 1-3 of the first event failed; it was sent 4 times with one id; events 2-5 waited behind it.
    expect(idsOf(target)).to.deep.equal([
      ...Array(4).fill(`msg_${ids[0]}_${flaky.id}`),
      ...ids.slice(1).map((eventId) => `msg_${eventId}_${flaky.id}`),
    ]);
    expect(new Set(target.received.slice(0, 4).map((r) => r.body)).size).to.equal(1); // the same bytes each time
    expect(idsOf(other)).to.deep.equal(ids.map((eventId) => `msg_${eventId}_${steady.id}`));
    const verifier = new Webhook(flaky.secret);
    for (const request of target.received) verifier.verify(request.body, request.headers as Record<string, string>);
    const attempts = await listAlertAttemptsOfSubscription(store.db, flaky.id);
    expect(attempts.filter((a) => a.event_id === ids[0]).map((a) => [a.attempt, a.status_code, a.error])).to.deep.equal(
      [
        [1, 500, "HTTP 500 (not a 2xx)"],
        [2, 503, "HTTP 503 (not a 2xx)"],
        [3, 302, "HTTP 302 (a redirect, not followed)"],
        [4, 200, null],
      ],
    );
  });

  it("a redirect to a private address is never followed: the 3xx is a failed attempt", async function () {
    const inner = await receiver();
    const target = await receiver(() => ({ status: 307, headers: { location: inner.url } }));
    const { id } = await subscribe(target.url);
    await appendActivity(store.db, [event(1)]);
    const [outcome] = await deliverDueAlerts(context());
    expect(outcome).to.include({ result: "retry", error: "HTTP 307 (a redirect, not followed)" });
    expect(target.received).to.have.length(1);
    expect(inner.received).to.have.length(0);
    const [row] = await listAlertOutbox(store.db, id);
    expect(row).to.include({ status: "pending", attempts: 1, last_status: 307 });
  });

  it("the schedule's delays grow, with ±10 % jitter; then the delivery fails and the subscription is paused", async function () {
    const target = await receiver(() => ({ status: 500 }));
    const { id } = await subscribe(target.url);
    await appendActivity(store.db, [event(1), event(2)]);
    let clock = 1_000_000;
    const schedule = [5, 30, 120];
    const delays: number[] = [];
    for (const random of [0, 0.999999, 0.5]) {
      const [outcome] = await deliverDueAlerts(
        context({ retryScheduleS: schedule, nowMs: () => clock, random: () => random }),
      );
      expect(outcome.result).to.equal("retry");
      const [row] = await listAlertOutbox(store.db, id);
      delays.push(row.next_attempt_at_ms - clock);
      // Not due a moment before the delay is over; due when it is.
      expect(
        await deliverDueAlerts(context({ retryScheduleS: schedule, nowMs: () => row.next_attempt_at_ms - 1 })),
      ).to.deep.equal([]);
      clock = row.next_attempt_at_ms;
    }
    expect(delays).to.deep.equal([4500, 33_000, 120_000]); // 5 s −10 %, 30 s +10 %, 120 s ±0
    for (let i = 1; i < delays.length; i++) expect(delays[i]).to.be.greaterThan(delays[i - 1]);
    const [last] = await deliverDueAlerts(context({ retryScheduleS: schedule, nowMs: () => clock }));
    expect(last).to.include({ result: "failed", attempt: 4 });
    const rows = await listAlertOutbox(store.db, id);
    expect(rows.map((row) => [row.status, row.attempts])).to.deep.equal([
      ["failed", 4],
      ["pending", 0],
    ]);
    let [view] = await listSubscriptions({ db: store.db, owner: OWNER });
    expect(view).to.include({ state: "paused", lastError: "HTTP 500 (not a 2xx)" });
    expect(view.pausedReason).to.match(/failed after 4 attempt\(s\); last error: HTTP 500/);
    expect(view.deliveries).to.deep.equal({ pending: 1, delivered: 0, failed: 1 });
    // Paused: nothing is sent, and new events are not queued for it.
    expect(await deliverDueAlerts(context({ nowMs: () => clock + 1e9 }))).to.deep.equal([]);
    await appendActivity(store.db, [event(3)]);
    expect(await listAlertOutbox(store.db, id)).to.have.length(2);
    expect(target.received).to.have.length(4);
    // Resumed: the pending event goes out (and fails again here, as attempt 1 of its own schedule).
    view = await resumeSubscription({ db: store.db, owner: OWNER, id });
    expect(view).to.include({ state: "active", pausedAt: null, pausedReason: null });
    const [resumed] = await deliverDueAlerts(context({ retryScheduleS: schedule, nowMs: () => clock + 1 }));
    expect(resumed).to.include({ result: "retry", attempt: 1 });
    expect(target.bodies().map((body) => body.data)).to.deep.equal([{ n: 1 }, { n: 1 }, { n: 1 }, { n: 1 }, { n: 2 }]);
  });

  it("connects to the checked address only, and checks again on every attempt: a name now private is refused", async function () {
    const target = await receiver();
    // "hooks.test" has no DNS entry anywhere: the request reaches the receiver only through the pinned address.
    const pinned = async () => [{ address: "127.0.0.1", family: 4 }];
    const local = await createSubscription({
      db: store.db,
      owner: OWNER,
      url: `http://hooks.test:${target.port}/hook`,
      kinds: ["pool.stale"],
      allowPrivateTargets: true,
      resolve: pinned,
    });
    await appendActivity(store.db, [event(1)]);
    const [first] = await deliverDueAlerts(context({ resolve: pinned }));
    expect(first.result).to.equal("delivered");
    expect(target.received[0].headers.host).to.equal(`hooks.test:${target.port}`);
    await deleteSubscription({ db: store.db, owner: OWNER, id: local.id });

    // Public when subscribed; the name later resolves to a private address (DNS rebinding): refused at the attempt.
    let answer = "93.184.215.14";
    const resolve = async () => [{ address: answer, family: 4 }];
    const { id } = await createSubscription({
      db: store.db,
      owner: OWNER,
      url: "https://hooks.test/hook",
      kinds: ["pool.stale"],
      resolve,
    });
    answer = "10.0.0.7";
    await appendActivity(store.db, [event(2)]);
    const [refused] = await deliverDueAlerts(context({ resolve, allowPrivateTargets: false }));
    expect(refused).to.include({
      result: "retry",
      error:
        "Target refused: the host name hooks.test resolves to an address that is not public (loopback, private, link-local or reserved).",
    });
    const [row] = await listAlertOutbox(store.db, id);
    expect(row).to.include({ status: "pending", attempts: 1, last_status: null });
    expect(target.received).to.have.length(1);
  });

  it("caps the time of an attempt and the answer read; a stopping worker gives its row back uncounted", async function () {
    const big = "x".repeat(200_000);
    const target = await receiver((_request, n) => (n === 0 ? "hang" : { status: 200, body: big }));
    const { id } = await subscribe(target.url);
    await appendActivity(store.db, [event(1)]);
    const [timedOut] = await deliverDueAlerts(context({ timeoutMs: 150 }));
    expect(timedOut).to.include({ result: "retry", error: "no answer within 150 ms" });
    await store.db.updateTable("alert_outbox").set({ next_attempt_at_ms: 0 }).execute();
    const [delivered] = await deliverDueAlerts(context());
    expect(delivered.result).to.equal("delivered"); // a 200 with a body far over the cap

    const hanging = await receiver(() => "hang");
    const second = await subscribe(hanging.url);
    await appendActivity(store.db, [event(2)]);
    const worker = startAlertWorker({
      db: store.db,
      retryScheduleS: [1],
      allowPrivateTargets: true,
      pollIntervalMs: 20,
      stopGraceMs: 50,
    });
    await waitFor(() => hanging.received.length === 1, "the attempt in flight");
    await worker.stop();
    const [row] = await listAlertOutbox(store.db, second.id);
    expect(row).to.include({ status: "pending", attempts: 0, lease_token: null, lease_expires_at_ms: null });
    expect(await listAlertAttemptsOfSubscription(store.db, second.id)).to.deep.equal([]);
    expect((await listAlertOutbox(store.db, id))[0].status).to.equal("delivered");
  });
});
