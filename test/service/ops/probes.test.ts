import { expect } from "chai";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { loadConfig } from "../../../src/config/loadConfig";
import { createMetrics } from "../../../src/metrics/serviceMetrics";
import { PROBE_CACHE_MS } from "../../../src/service/plugins/app/probes";
import { checkReadiness } from "../../../src/service/plugins/app/readiness";
import { startProbeServer } from "../../../src/service/probeServer";
import { createServiceStatus } from "../../../src/service/serviceStatus";
import { openStore, type Store } from "../../../src/storage/openStore";
import { migrations } from "../../../src/storage/migrations";
import { schemaStatus } from "../../../src/storage/schemaStatus";
import { finishIngestRun, startIngestRun } from "../../../src/storage/ingestRuns";
import type { Database } from "../../../src/storage/schema";
import { freePort } from "../../helpers/e2e/mainJob";
import { openTempStore } from "../../helpers/service/app";
import { buildOpsApp, listenLoopback, useOpsApp } from "../../helpers/service/opsApp";
import { startPostgres } from "../../../testkit/postgres";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** api and worker roles need a DATABASE_URL to configure; the tests hand the app its store themselves. */
const UNUSED_DATABASE_URL = "postgres://unused@127.0.0.1:1/unused";
const LAST_MIGRATION = Object.keys(migrations).at(-1) as string;

/** Polls `GET /readyz` until its status is `want` (at most `ms`); returns the last answer. */
async function readyzUntil(
  base: string,
  want: number,
  ms: number,
): Promise<{ status: number; body: { ready: boolean; reasons: string[] } }> {
  const deadline = Date.now() + ms;
  for (;;) {
    const response = await fetch(`${base}/readyz`);
    const answer = { status: response.status, body: await response.json() };
    if (answer.status === want || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("probes: /livez and /readyz", function () {
  this.timeout(60_000);

  const ops = useOpsApp();

  it("GET /livez answers 200 {live: true}, uncached", async function () {
    const app = await ops.build();
    const response = await app.inject({ url: "/livez" });
    expect(response.statusCode).to.equal(200);
    expect(response.json()).to.deep.equal({ live: true });
    expect(response.headers["cache-control"]).to.equal("no-store");
  });

  it("GET /readyz answers 200 with the process's role, instance, leader and last pass", async function () {
    const status = createServiceStatus({ role: "worker", instance: "w-1" });
    status.leader = true;
    status.lastPassAt = 1_767_225_600;
    const app = await ops.build({}, { status });
    const response = await app.inject({ url: "/readyz" });
    expect(response.statusCode).to.equal(200);
    expect(response.json()).to.deep.equal({
      ready: true,
      role: "worker",
      instance: "w-1",
      leader: true,
      lastPassAt: 1_767_225_600,
    });
    // The status is read at each request: main updates it in place.
    status.leader = false;
    expect((await app.inject({ url: "/readyz" })).json()).to.include({ leader: false });
  });

  it("without a status, /readyz reports the configured role and INSTANCE_ID (leader null on api)", async function () {
    const app = await ops.build({
      SERVICE_ROLE: "api",
      INSTANCE_ID: "api-7",
      DATABASE_URL: UNUSED_DATABASE_URL,
    });
    // An api process on a store where no pass has finished would serve nothing: not ready until one has.
    const empty = await app.inject({ url: "/readyz" });
    expect(empty.statusCode).to.equal(503);
    expect(empty.json()).to.deep.include({ ready: false, reasons: ["no finished pass"] });
    await startIngestRun(ops.temp.store.db, { id: "p", startedAt: 1 });
    await sleep(PROBE_CACHE_MS + 50);
    expect((await app.inject({ url: "/readyz" })).json().reasons).to.deep.equal(["no finished pass"]);
    await finishIngestRun(ops.temp.store.db, { id: "p", finishedAt: 2, status: "failed", sources: {} });
    // The store's answer is reused for up to a second.
    await sleep(PROBE_CACHE_MS + 50);
    expect((await app.inject({ url: "/readyz" })).json()).to.deep.equal({
      ready: true,
      role: "api",
      instance: "api-7",
      leader: null,
      lastPassAt: null,
    });
  });

  it("503 'draining' from the moment the status is draining (SIGTERM)", async function () {
    const status = createServiceStatus({ role: "all", instance: "a-1" });
    const app = await ops.build({}, { status });
    expect((await app.inject({ url: "/readyz" })).statusCode).to.equal(200);
    status.draining = true;
    const response = await app.inject({ url: "/readyz" });
    expect(response.statusCode).to.equal(503);
    expect(response.json()).to.deep.equal({
      ready: false,
      role: "all",
      instance: "a-1",
      leader: false,
      lastPassAt: null,
      reasons: ["draining"],
    });
    // Live all the same: draining is not dead.
    expect((await app.inject({ url: "/livez" })).statusCode).to.equal(200);
  });

  it("503 'store unavailable' when the store is closed", async function () {
    const app = await ops.build();
    await ops.temp.store.close();
    const response = await app.inject({ url: "/readyz" });
    expect(response.statusCode).to.equal(503);
    expect(response.json()).to.include({ ready: false });
    expect(response.json().reasons).to.deep.equal(["store unavailable"]);
    expect((await app.inject({ url: "/livez" })).statusCode).to.equal(200);
  });

  it("503 'schema behind' when a migration of this version is not applied", async function () {
    await sql`delete from kysely_migration where name = ${LAST_MIGRATION}`.execute(ops.temp.store.db);
    expect(await schemaStatus(ops.temp.store)).to.deep.equal({
      current: false,
      pending: [LAST_MIGRATION],
      known: Object.keys(migrations).length,
    });
    const app = await ops.build();
    const response = await app.inject({ url: "/readyz" });
    expect(response.statusCode).to.equal(503);
    expect(response.json().reasons).to.deep.equal(["schema behind"]);
  });

  it("lists every reason at once (draining and schema behind)", async function () {
    await sql`delete from kysely_migration where name = ${LAST_MIGRATION}`.execute(ops.temp.store.db);
    const status = createServiceStatus({ role: "worker", instance: "w-2" });
    status.draining = true;
    const app = await ops.build({}, { status });
    expect((await app.inject({ url: "/readyz" })).json().reasons).to.deep.equal(["draining", "schema behind"]);
  });

  it("a store slower than the timeout counts as unavailable (the check never hangs)", async function () {
    const hanging = new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: { connect: () => new Promise(() => undefined), end: async () => undefined } as never,
      }),
    });
    const status = createServiceStatus({ role: "api", instance: "x" });
    expect(await checkReadiness({ store: { db: hanging }, status, storeTimeoutMs: 50 })).to.deep.equal({
      ready: false,
      reasons: ["store unavailable"],
    });
  });

  it("503 'store unavailable' when PostgreSQL cannot be reached", async function () {
    const pool = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/none`, max: 1 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    try {
      const app = (ops.app = await buildOpsApp({ db }));
      const response = await app.inject({ url: "/readyz" });
      expect(response.statusCode).to.equal(503);
      expect(response.json().reasons).to.deep.equal(["store unavailable"]);
    } finally {
      await db.destroy();
    }
  });

  it("PostgreSQL restarting: /readyz turns 503 while it is down and 200 again by itself (real port)", async function () {
    const cluster = await startPostgres();
    let store: Store | undefined;
    try {
      store = await openStore({ databaseUrl: cluster.url });
      const app = (ops.app = await buildOpsApp(store));
      const base = await listenLoopback(app);
      expect((await readyzUntil(base, 200, 0)).status).to.equal(200);
      const restarted = cluster.restart({ downMs: 2000 });
      const down = await readyzUntil(base, 503, 10_000);
      expect(down.status, "not ready while the database is down").to.equal(503);
      expect(down.body.reasons).to.deep.equal(["store unavailable"]);
      expect((await fetch(`${base}/livez`)).status, "still live").to.equal(200);
      await restarted;
      expect((await readyzUntil(base, 200, 20_000)).status, "ready again without a restart").to.equal(200);
    } finally {
      await ops.app?.close();
      ops.app = undefined;
      await store?.close();
      await cluster.stop();
    }
  });

  it("the probes and /metrics answer after the client's rate limit is used up (and are not counted in it)", async function () {
    const app = await ops.build({ RATE_LIMIT_MAX: "3", RATE_LIMIT_WINDOW_S: "60" });
    for (let i = 0; i < 5; i++) expect((await app.inject({ url: "/livez" })).statusCode).to.equal(200);
    for (let i = 0; i < 3; i++) expect((await app.inject({ url: "/api/v1/health" })).statusCode).to.equal(200);
    const limited = await app.inject({ url: "/api/v1/health" });
    expect(limited.statusCode).to.equal(429);
    for (const url of ["/livez", "/readyz", "/metrics"]) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).to.equal(200);
      expect(response.headers, url).to.not.have.property("x-ratelimit-remaining");
    }
  });
});

describe("the probes-only server of a worker (startProbeServer)", function () {
  this.timeout(30_000);

  it("serves /livez, /readyz and /metrics on config.host:config.port, and nothing else", async function () {
    const temp = await openTempStore();
    const config = loadConfig({
      env: {
        LOG_LEVEL: "silent",
        SERVICE_ROLE: "worker",
        INSTANCE_ID: "w-9",
        HOST: "127.0.0.1",
        PORT: "0",
        DATABASE_URL: UNUSED_DATABASE_URL,
      },
    });
    const status = createServiceStatus({ role: config.role, instance: config.instanceId });
    const metrics = createMetrics();
    const { app, url } = await startProbeServer({ config, store: temp.store, status, metrics });
    try {
      expect(url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await (await fetch(`${url}/livez`)).json()).to.deep.equal({ live: true });
      metrics.ingestLeader.set(1);
      status.leader = true;
      const ready = await fetch(`${url}/readyz`, { headers: { "x-request-id": "probe-1" } });
      expect(ready.status).to.equal(200);
      expect(ready.headers.get("x-request-id")).to.equal("probe-1");
      expect(await ready.json()).to.deep.equal({
        ready: true,
        role: "worker",
        instance: "w-9",
        leader: true,
        lastPassAt: null,
      });
      const text = await (await fetch(`${url}/metrics`)).text();
      expect(text).to.match(/^attest_ingest_leader 1$/m);
      expect(text).to.match(/^attest_http_requests_total\{method="GET",route="\/readyz",status="200"\} 1$/m);

      const api = await fetch(`${url}/api/v1/pools`);
      expect(api.status).to.equal(404);
      expect(api.headers.get("x-request-id")).to.be.a("string").and.not.equal("");
      expect((await api.json()).error.message).to.include("/livez, /readyz, /metrics");

      status.draining = true;
      const draining = await fetch(`${url}/readyz`);
      expect(draining.status).to.equal(503);
      expect((await draining.json()).reasons).to.deep.equal(["draining"]);
    } finally {
      await app.close();
      await temp.cleanup();
    }
  });
});
