import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { surface as getActivitySurface } from "../../../src/read/getActivity";
import { declaredResponseSchema } from "../../../src/service/declaredRoutes";
import { appendActivity } from "../../../src/storage/activity";
import type { Store } from "../../../src/storage/openStore";
import { openTempStore } from "../../helpers/service/app";
import { buildMarketApp, expectError, expectSchema, useMarketApp } from "../../helpers/read/marketApp";
import { IDS, MARKET_NOW } from "../../helpers/read/seedMarket";
import { scoreKeys } from "../../helpers/read/walk";

/** The route answers its declaration's shape. */
const ActivityResponseSchema = declaredResponseSchema(getActivitySurface);

describe("activity route (real SQLite)", function () {
  const api = useMarketApp();

  describe("GET /api/v1/activity", function () {
    it("answers newest first with a cursor to the next page", async function () {
      const res = await api.get("/api/v1/activity?limit=2");
      expect(res.statusCode).to.equal(200);
      const body = res.json();
      expectSchema(ActivityResponseSchema, body);
      expect(body.events.map((event: { id: number }) => event.id)).to.deep.equal([10, 9]);
      expect(body.events[1]).to.include({ kind: "pool.stale", poolId: IDS.c });
      expect(body.next).to.be.a("string");
      const next = (await api.get(`/api/v1/activity?limit=2&cursor=${body.next}`)).json();
      expect(next.events.map((event: { id: number }) => event.id)).to.deep.equal([8, 7]);
      expect(scoreKeys(body)).to.deep.equal([]);
    });

    it("defaults to 50 events and filters by kind", async function () {
      expect((await api.get("/api/v1/activity")).json().events).to.have.length(10);
      const stale = (await api.get("/api/v1/activity?kind=pool.stale,registry.Registered")).json();
      expect(stale.events.map((event: { kind: string }) => event.kind)).to.deep.equal([
        "pool.stale",
        "pool.stale",
        "pool.stale",
        "registry.Registered",
        "registry.Registered",
      ]);
      expect(stale.next).to.equal(null);
    });

    it("answers 400 INVALID_CURSOR for a cursor it did not hand out", async function () {
      for (const cursor of ["nope", "%21%21", Buffer.from("a1.-1").toString("base64url")]) {
        expectError(await api.get(`/api/v1/activity?cursor=${cursor}`), 400, "INVALID_CURSOR", "cursor");
      }
    });

    it("answers 400 for a limit outside 1–200 or a malformed kind", async function () {
      for (const limit of ["0", "201", "x"]) {
        expectError(await api.get(`/api/v1/activity?limit=${limit}`), 400, "INVALID_REQUEST", "limit");
      }
      expectError(await api.get("/api/v1/activity?kind=a%20b"), 400, "INVALID_PARAMETER", "kind");
    });

    it("answers 400 INVALID_PARAMETER naming a kind that is not an activity kind, even beside known ones", async function () {
      for (const kind of ["pool.nope", "pool.stale,Pool.Stale", "alert.test", "ingest.pass,"]) {
        const response = await api.get(`/api/v1/activity?kind=${encodeURIComponent(kind)}`);
        expectError(response, 400, "INVALID_PARAMETER", "kind");
        const unknown = kind.split(",").find((k) => !["pool.stale", "ingest.pass"].includes(k));
        expect(response.json().error.message).to.include(`got "${unknown}"`);
        expect(response.json().error.message).to.include("pool.stale, pool.fresh");
      }
      // A kind named twice is one filter.
      const twice = (await api.get("/api/v1/activity?kind=pool.stale,pool.stale")).json();
      expect(twice).to.deep.equal((await api.get("/api/v1/activity?kind=pool.stale")).json());
    });
  });
});

describe("activity feed end to end (real port)", function () {
  let store: Store;
  let app: FastifyInstance;
  let cleanup: () => Promise<void>;
  let base: string;

  before(async function () {
    const temp = await openTempStore();
    store = temp.store;
    cleanup = temp.cleanup;
    app = await buildMarketApp(store);
    base = await app.listen({ port: 0, host: "127.0.0.1" });
  });
  after(async function () {
    await app.close();
    await cleanup();
  });

  const add = (n: number) =>
    appendActivity(
      store.db,
      Array.from({ length: n }, (_, i) => ({
        kind: "attestation.issued",
        at: MARKET_NOW,
        summary: `e${i}`,
        data: { i },
      })),
    );

  it("pages over HTTP without a gap or a repeat while events arrive (and the writers invalidate the cache)", async function () {
    await add(30);
    const seen: number[] = [];
    let url = `${base}/api/v1/activity?limit=8`;
    for (;;) {
      const res = await fetch(url);
      expect(res.status).to.equal(200);
      const body = (await res.json()) as { events: { id: number }[]; next: string | null };
      expectSchema(ActivityResponseSchema, body);
      seen.push(...body.events.map((event) => event.id));
      if (body.next === null) break;
      await add(5);
      app.responseCache.invalidate();
      url = `${base}/api/v1/activity?limit=8&cursor=${body.next}`;
    }
    expect(seen).to.deep.equal(Array.from({ length: 30 }, (_, i) => 30 - i));
    const fresh = (await (await fetch(`${base}/api/v1/activity?limit=1`)).json()) as { events: { id: number }[] };
    expect(fresh.events[0].id).to.equal(30 + 5 * 3);
  });

  it("answers an invalid cursor with the error shape over HTTP", async function () {
    const res = await fetch(`${base}/api/v1/activity?cursor=zzz`);
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).to.equal("INVALID_CURSOR");
  });
});

describe("activity route over an empty store", function () {
  const api = useMarketApp({ seeded: false });

  it("answers an empty page with no cursor", async function () {
    const body = (await api.get("/api/v1/activity")).json();
    expectSchema(ActivityResponseSchema, body);
    expect(body).to.deep.equal({ events: [], next: null });
  });
});
