import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { Webhook } from "standardwebhooks";
import { deliverDueAlerts } from "../../../src/alerts/deliverAlert";
import { MAX_SUBSCRIPTIONS_PER_OWNER } from "../../../src/alerts/createSubscription";
import { pauseAlertSubscription } from "../../../src/storage/alertSubscriptions";
import { listAlertOutbox } from "../../../src/storage/alertOutbox";
import type { Store } from "../../../src/storage/openStore";
import { testDeliveryContext } from "../../helpers/alerts/deliveryContext";
import { expectNoAddress } from "../../helpers/alerts/noAddress";
import { startReceiver, type Receiver } from "../../helpers/alerts/receiver";
import { NOW, POOLS, buildTestApp, openKeyedStore } from "../../helpers/service/app";

const URL = "/api/v1/alert-subscriptions";
const KEY = "a".repeat(24) + "-alerts-route-key-01";
const OTHER_KEY = "b".repeat(24) + "-alerts-route-key-02";
const THIRD_KEY = "c".repeat(24) + "-alerts-route-key-03";

describe("alert-subscriptions routes (real SQLite)", function () {
  let store: Store;
  let cleanup: () => Promise<void>;
  let app: FastifyInstance;
  let privateApp: FastifyInstance;
  let receiver: Receiver;

  before(async function () {
    ({ store, cleanup } = await openKeyedStore([KEY, OTHER_KEY, THIRD_KEY]));
    app = await buildTestApp(store);
    privateApp = await buildTestApp(store, { ALERTS_ALLOW_PRIVATE_TARGETS: "1" });
    receiver = await startReceiver();
  });
  after(async function () {
    await app?.close();
    await privateApp?.close();
    await receiver?.close();
    await cleanup();
  });

  const request = (
    method: "GET" | "POST" | "DELETE",
    path: string,
    options: { key?: string | null; body?: unknown; on?: FastifyInstance } = {},
  ) =>
    (options.on ?? app).inject({
      method,
      url: path,
      ...(options.body === undefined
        ? {}
        : { payload: JSON.stringify(options.body), headers: { "content-type": "application/json" } }),
      headers: {
        ...(options.body === undefined ? {} : { "content-type": "application/json" }),
        ...(options.key === null ? {} : { authorization: `Bearer ${options.key ?? KEY}` }),
      },
    });
  const subscribe = (body: unknown, key = KEY, on = privateApp) => request("POST", URL, { key, body, on });

  describe("authentication", function () {
    it("answers 401 UNAUTHORIZED with WWW-Authenticate on every route without a valid key", async function () {
      for (const [method, path] of [
        ["GET", URL],
        ["POST", URL],
        ["DELETE", `${URL}/x`],
        ["POST", `${URL}/x/resume`],
      ] as const) {
        const missing = await request(method, path, { key: null });
        expect(missing.statusCode, `${method} ${path}`).to.equal(401);
        expect(missing.headers["www-authenticate"]).to.equal("Bearer");
        expect(missing.json().error.code).to.equal("UNAUTHORIZED");
        const wrong = await request(method, path, { key: "w".repeat(40) });
        expect(wrong.statusCode).to.equal(401);
        expect(wrong.json().error.code).to.equal("UNAUTHORIZED");
      }
    });
  });

  describe("POST /api/v1/alert-subscriptions", function () {
    it("answers 201 with the id, the normalized url, the kinds and the secret, shown once", async function () {
      const res = await subscribe({ url: receiver.url, kinds: ["pool.stale", "attestation.issued"] });
      expect(res.statusCode).to.equal(201);
      const body = res.json();
      expect(body).to.deep.equal({
        id: body.id,
        url: receiver.url,
        kinds: ["pool.stale", "attestation.issued"],
        pool: null,
        secret: body.secret,
        state: "active",
        createdAt: NOW,
      });
      expect(body.secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(body.secret.slice(6), "base64")).to.have.length(32);
      const listed = await request("GET", URL);
      expect(listed.statusCode).to.equal(200);
      expect(listed.body).to.not.include(body.secret);
      expect(listed.json().subscriptions.find((s: { id: string }) => s.id === body.id)).to.deep.equal({
        id: body.id,
        url: receiver.url,
        kinds: ["pool.stale", "attestation.issued"],
        pool: null,
        state: "active",
        createdAt: NOW,
        pausedAt: null,
        pausedReason: null,
        deliveries: { pending: 0, delivered: 0, failed: 0 },
        lastError: null,
        lastErrorAt: null,
        lastDeliveredAt: null,
      });
    });

    it("refuses targets that are not https on a public address (400 ALERT_TARGET_REFUSED, field url)", async function () {
      const refused: [string, RegExp][] = [
        ["http://hooks.example.com/", /must use https, not http:/],
        ["https://127.0.0.1/", /127\.0\.0\.1 is not a public address/],
        ["https://[::1]:8443/", /::1 is not a public address/],
        ["https://[::ffff:10.0.0.1]/", /not a public address/],
        ["https://169.254.169.254/", /not a public address/],
        ["https://2130706433/", /dotted decimal/],
        ["https://0177.0.0.1/", /dotted decimal/],
        ["https://localhost/", /the host name localhost resolves to an address that is not public/],
        ["not a url", /not a valid absolute URL/],
      ];
      for (const [url, message] of refused) {
        const res = await subscribe({ url, kinds: ["pool.stale"] }, KEY, app);
        expect(res.statusCode, url).to.equal(400);
        const { error } = res.json();
        expect(error).to.include({ code: "ALERT_TARGET_REFUSED", field: "url" });
        expect(error.message, url).to.match(message);
      }
    });

    it("never names the address a refused host name resolves to (no DNS oracle for a key holder)", async function () {
      // localhost resolves to loopback from /etc/hosts, no outside DNS; the port and path change nothing.
      for (const url of ["https://localhost/", "https://localhost:8443/hook", "https://LOCALHOST/x"]) {
        const res = await subscribe({ url, kinds: ["pool.stale"] }, KEY, app);
        expect(res.statusCode, url).to.equal(400);
        const { error } = res.json();
        expect(error).to.include({ code: "ALERT_TARGET_REFUSED", field: "url" });
        expect(error.message, url).to.match(/resolves to an address that is not public/);
        expectNoAddress(error.message, [{ address: "127.0.0.1" }, { address: "::1" }]);
        expectNoAddress(res.body, [{ address: "127.0.0.1" }, { address: "::1" }]);
      }
      // A literal address is the caller's own input: it is named.
      const literal = (await subscribe({ url: "https://127.0.0.1/", kinds: ["pool.stale"] }, KEY, app)).json();
      expect(literal.error.message).to.equal("Target refused: 127.0.0.1 is not a public address.");
    });

    it("ALERTS_ALLOW_PRIVATE_TARGETS=1 accepts a loopback http target (demo and tests)", async function () {
      const res = await subscribe({ url: `http://127.0.0.1:${receiver.port}/other`, kinds: ["pool.fresh"] });
      expect(res.statusCode).to.equal(201);
    });

    it("refuses bad kinds and bad bodies with 400 naming the field, without coercion", async function () {
      const cases: [unknown, string][] = [
        [{ url: receiver.url, kinds: [] }, "kinds"],
        [{ url: receiver.url, kinds: ["pool.rotten"] }, "kinds"],
        [{ url: receiver.url, kinds: ["pool.stale", "pool.stale"] }, "kinds"],
        [{ url: receiver.url, kinds: "pool.stale" }, "kinds"],
        [{ url: receiver.url }, "kinds"],
        [{ kinds: ["pool.stale"] }, "url"],
        [{ url: 42, kinds: ["pool.stale"] }, "url"],
        [{ url: receiver.url, kinds: ["pool.stale"], secret: "mine" }, ""],
      ];
      for (const [body, field] of cases) {
        const res = await subscribe(body);
        expect(res.statusCode, JSON.stringify(body)).to.equal(400);
        const { error } = res.json();
        expect(error.code).to.equal("INVALID_REQUEST");
        if (field !== "") expect(error.field, JSON.stringify(body)).to.equal(field);
      }
      const unknown = await subscribe({ url: receiver.url, kinds: ["pool.rotten"] });
      expect(unknown.json().error.message).to.match(/"pool\.rotten" is not an activity kind; use one of ingest\.pass/);
      const notJson = await privateApp.inject({
        method: "POST",
        url: URL,
        payload: "{",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      });
      expect(notJson.statusCode).to.equal(400);
      expect(notJson.json().error.code).to.equal("INVALID_JSON");
    });

    it(`holds at most ${MAX_SUBSCRIPTIONS_PER_OWNER} subscriptions per owner (409 ALERT_SUBSCRIPTION_LIMIT)`, async function () {
      for (let i = 0; i < MAX_SUBSCRIPTIONS_PER_OWNER; i++) {
        expect((await subscribe({ url: receiver.url, kinds: ["ingest.pass"] }, THIRD_KEY)).statusCode).to.equal(201);
      }
      const res = await subscribe({ url: receiver.url, kinds: ["ingest.pass"] }, THIRD_KEY);
      expect(res.statusCode).to.equal(409);
      expect(res.json().error.code).to.equal("ALERT_SUBSCRIPTION_LIMIT");
    });
  });

  describe("owners", function () {
    it("a key sees, deletes and resumes only its own subscriptions; another owner's id is 404", async function () {
      const mine = (await subscribe({ url: receiver.url, kinds: ["pool.stale"] })).json();
      const theirs = (await subscribe({ url: receiver.url, kinds: ["pool.stale"] }, OTHER_KEY)).json();
      const ids = (key: string) =>
        request("GET", URL, { key }).then((res) => res.json().subscriptions.map((s: { id: string }) => s.id));
      expect(await ids(KEY))
        .to.include(mine.id)
        .and.not.include(theirs.id);
      expect(await ids(OTHER_KEY)).to.deep.equal([theirs.id]);
      for (const [method, path] of [
        ["DELETE", `${URL}/${theirs.id}`],
        ["POST", `${URL}/${theirs.id}/resume`],
        ["DELETE", `${URL}/no-such-id`],
      ] as const) {
        const res = await request(method, path);
        expect(res.statusCode, `${method} ${path}`).to.equal(404);
        expect(res.json().error.code).to.equal("ALERT_SUBSCRIPTION_NOT_FOUND");
      }
      expect(await ids(OTHER_KEY)).to.deep.equal([theirs.id]);
      const deleted = await request("DELETE", `${URL}/${mine.id}`);
      expect(deleted.statusCode).to.equal(204);
      expect(deleted.body).to.equal("");
      expect(await ids(KEY)).to.not.include(mine.id);
      const again = await request("DELETE", `${URL}/${mine.id}`);
      expect(again.statusCode).to.equal(404);
      expect(again.json().error.code).to.equal("ALERT_SUBSCRIPTION_NOT_FOUND");
    });

    it("resume makes a paused subscription active again (200 with its state)", async function () {
      const { id } = (await subscribe({ url: receiver.url, kinds: ["pool.fresh"] }, OTHER_KEY)).json();
      await pauseAlertSubscription(store.db, { id, at: NOW, reason: "msg_1 failed after 8 attempt(s)" });
      const paused = (await request("GET", URL, { key: OTHER_KEY }))
        .json()
        .subscriptions.find((s: { id: string }) => s.id === id);
      expect(paused).to.include({ state: "paused", pausedAt: NOW, pausedReason: "msg_1 failed after 8 attempt(s)" });
      const res = await request("POST", `${URL}/${id}/resume`, { key: OTHER_KEY });
      expect(res.statusCode).to.equal(200);
      expect(res.json()).to.include({ id, state: "active", pausedAt: null, pausedReason: null });
    });
  });

  describe("delivery of a keyed write's event", function () {
    it("queues the liquidity_request.created event in the write's transaction; the body is the event as GET /activity serves it, plus type", async function () {
      const created = await subscribe({ url: receiver.url, kinds: ["liquidity_request.created"] }, OTHER_KEY);
      const { id, secret } = created.json();
      const write = await app.inject({
        method: "POST",
        url: "/api/v1/liquidity-requests",
        payload: JSON.stringify({ chainId: 1, pool: POOLS.weth, amountUsd: 1000, horizonDays: 7 }),
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      });
      expect(write.statusCode).to.equal(201);
      const [row] = await listAlertOutbox(store.db, id);
      expect(row).to.include({ status: "pending", attempts: 0 });
      const listed = (await request("GET", URL, { key: OTHER_KEY }))
        .json()
        .subscriptions.find((s: { id: string }) => s.id === id);
      expect(listed.deliveries).to.deep.equal({ pending: 1, delivered: 0, failed: 0 });

      const before = receiver.received.length;
      const outcomes = await deliverDueAlerts(
        testDeliveryContext(store.db, { retryScheduleS: [1], workerId: "route-test" }),
      );
      expect(outcomes.map((o) => o.webhookId)).to.include(`msg_${row.event_id}_${id}`);
      const delivery = receiver.received
        .slice(before)
        .find((r) => r.headers["webhook-id"] === `msg_${row.event_id}_${id}`)!;
      const body = new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
      const activity = await app.inject({
        method: "GET",
        url: "/api/v1/activity?limit=200&kind=liquidity_request.created",
      });
      const served = activity.json().events.find((e: { id: number }) => e.id === row.event_id);
      expect(body).to.deep.equal({ ...served, type: "liquidity_request.created" });
      expect((body as { data: { id: string } }).data.id).to.equal(write.json().id);
      const after = (await request("GET", URL, { key: OTHER_KEY }))
        .json()
        .subscriptions.find((s: { id: string }) => s.id === id);
      expect(after.deliveries).to.deep.equal({ pending: 0, delivered: 1, failed: 0 });
    });
  });

  it("is described in the OpenAPI document", async function () {
    const doc = (await app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json();
    expect(Object.keys(doc.paths)).to.include.members([
      "/api/v1/alert-subscriptions",
      "/api/v1/alert-subscriptions/{id}",
      "/api/v1/alert-subscriptions/{id}/resume",
    ]);
    expect(doc.paths["/api/v1/alert-subscriptions"].post.security).to.deep.equal([{ bearerAuth: [] }]);
  });
});
