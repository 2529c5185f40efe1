import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { Webhook } from "standardwebhooks";
import { deliverDueAlerts } from "../../src/alerts/deliverAlert";
import { appendActivity } from "../../src/storage/activity";
import { pauseAlertSubscription } from "../../src/storage/alertSubscriptions";
import { listAlertOutbox } from "../../src/storage/alertOutbox";
import type { Store } from "../../src/storage/openStore";
import { testDeliveryContext } from "../helpers/alerts/deliveryContext";
import { startReceiver, type Receiver } from "../helpers/alerts/receiver";
import { NOW, buildTestApp, openKeyedStore } from "../helpers/service/app";

const URL = "/api/v1/alert-subscriptions";
const KEY = "t".repeat(24) + "-alerts-test-event-key-1";
const OTHER_KEY = "u".repeat(24) + "-alerts-test-event-key-2";

/**
 * `POST /api/v1/alert-subscriptions/{id}/test` (docs/alerts.md#test-events): one `alert.test` event queued
 * for that subscription only, delivered through the outbox like any other event (checked with the `standardwebhooks`
 * verifier at a loopback receiver), never in the activity log, one pending at a time.
 */
describe("alert test events (keyed route, loopback receiver, real SQLite)", function () {
  let store: Store;
  let cleanup: () => Promise<void>;
  let app: FastifyInstance;
  let receiver: Receiver;

  const context = () => testDeliveryContext(store.db, { retryScheduleS: [0.05], workerId: "test-event-worker" });
  const call = (method: "GET" | "POST", url: string, key = KEY, body?: unknown) =>
    app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  before(async function () {
    ({ store, cleanup } = await openKeyedStore([KEY, OTHER_KEY]));
    app = await buildTestApp(store, { ALERTS_ALLOW_PRIVATE_TARGETS: "1" });
    receiver = await startReceiver();
  });
  after(async function () {
    await app?.close();
    await receiver?.close();
    await cleanup();
  });

  it("queues one alert.test event that reaches the target signed as Standard Webhooks, and never the activity log", async function () {
    const created = await call("POST", URL, KEY, { url: receiver.url, kinds: ["pool.stale"] });
    expect(created.statusCode).to.equal(201);
    const { id, secret } = created.json() as { id: string; secret: string };
    const activityBefore = (await app.inject({ url: "/api/v1/activity?limit=200" })).json().events as unknown[];

    const queued = await call("POST", `${URL}/${id}/test`);
    expect(queued.statusCode).to.equal(202);
    const body = queued.json() as { eventId: number; webhookId: string };
    expect(body).to.deep.equal({
      id,
      eventId: body.eventId,
      webhookId: `msg_${body.eventId}_${id}`,
      kind: "alert.test",
      status: "pending",
    });

    // One at a time: a second test while the first is pending is refused, and writes nothing.
    const again = await call("POST", `${URL}/${id}/test`);
    expect(again.statusCode).to.equal(409);
    expect(again.json().error.code).to.equal("ALERT_TEST_PENDING");
    expect((await listAlertOutbox(store.db, id)).map((row) => row.event_id)).to.deep.equal([body.eventId]);

    const outcomes = await deliverDueAlerts(context());
    expect(outcomes.map((o) => o.result)).to.deep.equal(["delivered"]);
    expect(receiver.received).to.have.length(1);
    const [request] = receiver.received;
    expect(request.headers["webhook-id"]).to.equal(body.webhookId);
    const verified = new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
    expect(verified).to.deep.include({
      id: body.eventId,
      kind: "alert.test",
      type: "alert.test",
      at: NOW,
      poolId: null,
      data: { subscriptionId: id, test: true },
    });

    // Never published: not on the log's pages, not by kind (an unknown kind there), not in the roadmap's counts.
    const activityAfter = (await app.inject({ url: "/api/v1/activity?limit=200" })).json().events as { id: number }[];
    expect(activityAfter).to.deep.equal(activityBefore);
    const byKind = await app.inject({ url: "/api/v1/activity?kind=alert.test" });
    expect(byKind.statusCode).to.equal(400);
    expect(byKind.json().error).to.include({ code: "INVALID_PARAMETER", field: "kind" });
    expect(byKind.json().error.message).to.include('got "alert.test"');

    // Delivered: the next test is accepted, and the delivery counts show both like any other event's.
    expect((await call("POST", `${URL}/${id}/test`)).statusCode).to.equal(202);
    const [view] = (await call("GET", URL)).json().subscriptions as { deliveries: Record<string, number> }[];
    expect(view.deliveries).to.deep.equal({ pending: 1, delivered: 1, failed: 0 });
  });

  it("waits behind the subscription's older pending deliveries, in event order", async function () {
    const target = await startReceiver();
    try {
      const { id } = (await call("POST", URL, KEY, { url: target.url, kinds: ["pool.stale"] })).json() as {
        id: string;
      };
      const [eventId] = await appendActivity(store.db, [
        { kind: "pool.stale", at: NOW, summary: "a real event", data: {} },
      ]);
      const test = (await call("POST", `${URL}/${id}/test`)).json() as { eventId: number };
      for (let pass = 0; pass < 4 && target.received.length < 2; pass++) await deliverDueAlerts(context());
      expect(target.bodies().map((b) => [b.id, b.kind])).to.deep.equal([
        [eventId, "pool.stale"],
        [test.eventId, "alert.test"],
      ]);
    } finally {
      await target.close();
    }
  });

  it("is 404 for another key's subscription and 409 for a paused one", async function () {
    const { id } = (await call("POST", URL, KEY, { url: receiver.url, kinds: ["pool.fresh"] })).json() as {
      id: string;
    };
    const other = await call("POST", `${URL}/${id}/test`, OTHER_KEY);
    expect(other.statusCode).to.equal(404);
    expect(other.json().error.code).to.equal("ALERT_SUBSCRIPTION_NOT_FOUND");
    expect((await call("POST", `${URL}/no-such-id/test`)).statusCode).to.equal(404);
    await pauseAlertSubscription(store.db, { id, at: NOW, reason: "test" });
    const paused = await call("POST", `${URL}/${id}/test`);
    expect(paused.statusCode).to.equal(409);
    expect(paused.json().error.code).to.equal("ALERT_SUBSCRIPTION_PAUSED");
    expect(await listAlertOutbox(store.db, id)).to.deep.equal([]);
    const unkeyed = await app.inject({ method: "POST", url: `${URL}/${id}/test` });
    expect(unkeyed.statusCode).to.equal(401);
  });
});
