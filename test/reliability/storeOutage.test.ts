import { createServer as createHttpServer } from "node:http";
import { createServer, type AddressInfo, type Socket } from "node:net";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import BetterSqlite3 from "better-sqlite3";
import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { createSubscription } from "../../src/alerts/createSubscription";
import { startAlertWorker, type AlertWorker } from "../../src/alerts/startAlertWorker";
import { findStoreUnavailable, isStoreUnreachable, StoreUnavailableError } from "../../src/errors/storage";
import { toErrorBody } from "../../src/service/errorBodies";
import { runIngestionPass } from "../../src/ingest/runIngestionPass";
import { appendActivity } from "../../src/storage/activity";
import { openStore, type Store } from "../../src/storage/openStore";
import { startReceiver, waitFor, type Receiver } from "../helpers/alerts/receiver";
import { connectInMemory, depsOf, textOf } from "../helpers/mcp/fixture";
import { startServiceJob, type ServiceJob } from "../helpers/reliability/serviceJob";
import { startPostgres, type TestPostgres } from "../../testkit/postgres";
import { buildWebApp, INJECT_ORIGIN, seedWeb, signInCookie } from "../helpers/web/webApp";
import { openTempStore, type TempStore } from "../helpers/storage/tempStore";

/** One answer seen under load. */
type Seen = { what: string; status: number; code?: string; retryAfter?: string; location?: string };

/** The surfaces that read the store: the API, the dapp's JSON and pages behind a session, and an MCP tool. */
function requests(app: FastifyInstance, cookie: string) {
  const inject = async (what: string, url: string, headers: Record<string, string> = {}): Promise<Seen> => {
    const response = await app.inject({ method: "GET", url, headers });
    let code: string | undefined;
    if (String(response.headers["content-type"]).startsWith("application/json")) {
      code = (response.json() as { error?: { code?: string } }).error?.code;
    } else {
      code = /<code>([A-Z_]+)<\/code>/.exec(response.body)?.[1];
    }
    return {
      what,
      status: response.statusCode,
      code,
      retryAfter: response.headers["retry-after"] as string | undefined,
      location: response.headers.location as string | undefined,
    };
  };
  return [
    () => inject("api pools", "/api/v1/pools"),
    () => inject("api health", "/api/v1/health"),
    () => inject("api activity", "/api/v1/activity"),
    () => inject("dapp keys (JSON, session)", "/app/api/keys", { cookie }),
    () => inject("dapp keys page (session)", "/app/keys", { cookie }),
    () => inject("dapp pools page", "/app/pools", { cookie }),
  ];
}

describe("reliability: the database goes away (PostgreSQL restarted under load)", function () {
  this.timeout(180_000);

  describe("an app, the alert worker and a transaction on a PostgreSQL store", function () {
    let server: TestPostgres;
    let store: Store;
    let app: FastifyInstance;
    let receiver: Receiver;
    let worker: AlertWorker;
    const brokenConnections: Error[] = [];
    const workerErrors: unknown[] = [];

    before(async function () {
      // A cluster of its own: restarting the run's shared one would cut every other file's sessions.
      server = await startPostgres();
      store = await openStore({ databaseUrl: server.url, onConnectionError: (error) => brokenConnections.push(error) });
      await seedWeb(store);
      app = await buildWebApp(store, { PUBLIC_ORIGIN: INJECT_ORIGIN, API_CACHE_TTL_MS: "0", RATE_LIMIT_MAX: "0" });
      receiver = await startReceiver();
      worker = startAlertWorker({
        db: store.db,
        retryScheduleS: [0.05, 0.05, 0.05],
        allowPrivateTargets: true,
        pollIntervalMs: 50,
        onError: (error) => workerErrors.push(error),
      });
    });

    after(async function () {
      await worker?.stop();
      await receiver?.close();
      await app?.close();
      await store?.close();
      await server?.stop();
    });

    it("answers 503 STORE_UNAVAILABLE with Retry-After while it is down (never 500, never 401 or a sign-in redirect), then 200 again", async function () {
      const cookie = await signInCookie(app);
      const surfaces = requests(app, cookie);
      for (const request of surfaces) expect((await request()).status, "before the restart").to.equal(200);
      const mcp = await connectInMemory(await depsOf(app));

      // A transaction holding a checked-out connection across the restart: the session the server ends (57P01)
      // emitted an unhandled `error` on such a client before, and ended the process.
      let restarted!: () => void;
      const restartedPromise = new Promise<void>((resolve) => (restarted = resolve));
      const held = store.db.transaction().execute(async (trx) => {
        await trx.selectFrom("pools").select("address").execute();
        await restartedPromise;
        return trx.selectFrom("pools").select("address").execute();
      });
      const heldOutcome = held.then(
        () => null,
        (error: unknown) => error,
      );

      const seen: Seen[] = [];
      const toolAnswers: CallToolResult[] = [];
      let loading = true;
      const load = (async () => {
        while (loading) {
          seen.push(...(await Promise.all(surfaces.map((request) => request()))));
          toolAnswers.push((await mcp.client.callTool({ name: "list_pools", arguments: {} })) as CallToolResult);
        }
      })();

      await waitFor(() => seen.length >= 3 * surfaces.length, "load before the restart");
      await server.restart({ downMs: 1500 });
      restarted();
      // Back without restarting anything: the next queries connect again.
      await waitFor(async () => (await surfaces[0]()).status === 200, "the API to answer 200 again", 60_000);
      const resumedAt = seen.length;
      await waitFor(() => seen.length >= resumedAt + 2 * surfaces.length, "load after the restart");
      loading = false;
      await load;
      await mcp.close();

      const failures = seen.filter((answer) => answer.status !== 200);
      expect(
        failures.filter((answer) => answer.status === 500 || answer.status === 401),
        "no 500, no 401",
      ).to.deep.equal([]);
      for (const answer of failures) {
        expect(answer, "every failure is a store outage").to.include({ status: 503, code: "STORE_UNAVAILABLE" });
        expect(answer.retryAfter, `${answer.what}: Retry-After`).to.equal("5");
      }
      const unavailable = [...new Set(failures.map((answer) => answer.what))].sort();
      const names = seen.slice(0, surfaces.length).map((answer) => answer.what);
      expect(unavailable, "every surface answered 503 while the store was down").to.deep.equal([...names].sort());
      expect(
        seen.slice(-surfaces.length).map((answer) => answer.status),
        "after it returns",
      ).to.deep.equal(surfaces.map(() => 200));

      const toolErrors = toolAnswers.filter((answer) => answer.isError === true);
      expect(toolErrors, "the MCP tool answered a tool error while the store was down").to.not.deep.equal([]);
      for (const answer of toolErrors) {
        expect(JSON.parse(textOf(answer)).error.code).to.equal("STORE_UNAVAILABLE");
      }
      expect(toolAnswers.at(-1)!.isError ?? false, "the MCP tool answers after it returns").to.equal(false);

      const heldError = await heldOutcome;
      expect(heldError, "the transaction across the restart fails as a store outage").to.be.instanceOf(
        StoreUnavailableError,
      );
      expect(brokenConnections.length, "a broken connection was reported (57P01)").to.be.greaterThan(0);
    });

    it("the alert worker reports the outage once, keeps polling, and delivers after the store returns", async function () {
      const reported = workerErrors.filter((error) => findStoreUnavailable(error) !== null);
      expect(reported, "one report for the whole outage").to.have.length(1);
      await createSubscription({
        db: store.db,
        owner: "key:outage",
        url: receiver.url,
        kinds: ["pool.stale"],
        allowPrivateTargets: true,
      });
      await appendActivity(store.db, [
        { kind: "pool.stale", at: 1_767_225_600, pool: null, summary: "after the restart", data: {} },
      ]);
      await waitFor(() => receiver.received.length === 1, "the delivery after the restart");
      expect(receiver.bodies()[0]).to.include({ kind: "pool.stale", summary: "after the restart" });
    });

    it("a pass that fails because the store went away is recorded with that reason by its own process, not as interrupted", async function () {
      // A yields feed that holds its answer until released: the pass is in flight while the database goes away.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const feed = createHttpServer((_request, response) => {
        void held.then(() =>
          response.writeHead(200, { "content-type": "application/json" }).end('{"status":"success","data":[]}'),
        );
      });
      await new Promise<void>((resolve) => feed.listen(0, "127.0.0.1", resolve));
      const yieldsUrl = `http://127.0.0.1:${(feed.address() as AddressInfo).port}`;
      const pool = {
        chainId: 1,
        address: "0x00000000000000000000000000000000000000ab" as const,
        kind: "amm" as const,
        protocol: "uniswap-v2",
        symbol: "A-B",
        defillamaId: "747c1d2a-c668-4682-b9f9-296708a3dd90",
      };
      let clock = 1_790_000_000;
      const pass = () =>
        runIngestionPass({
          store,
          pools: [pool],
          chains: [],
          feeds: { defillamaYieldsUrl: yieldsUrl },
          now: () => clock,
          issue: false,
          freshnessWindowS: 3600,
          instanceId: "alive",
          log: () => undefined,
        });
      try {
        const first = pass();
        first.catch(() => undefined);
        await waitFor(
          async () =>
            (await store.db.selectFrom("ingest_runs").select("id").where("status", "=", "running").execute()).length ===
            1,
          "the pass in flight",
        );
        const restarting = server.restart({ downMs: 2500 });
        await new Promise((resolve) => setTimeout(resolve, 800));
        release(); // the pass goes on to write while the database is down
        const error = await first.then(
          () => null,
          (caught: unknown) => caught,
        );
        expect(findStoreUnavailable(error), "the pass fails as a store outage").to.not.equal(null);
        await restarting;
        // The next pass of the same (live) process, past the heartbeat's staleness: the first run gets its own reason.
        clock += 300;
        await pass();
        const runs = await store.db
          .selectFrom("ingest_runs")
          .selectAll()
          .where("instance_id", "=", "alive")
          .orderBy("started_at")
          .execute();
        expect(runs.map((run) => run.status)).to.deep.equal(["failed", "partial"]);
        const reason = (JSON.parse(runs[0].sources_json) as { pass: { error: string } }).pass.error;
        expect(reason).to.not.match(/^interrupted/);
        const events = await store.db
          .selectFrom("activity_events")
          .select("data_json")
          .where("kind", "=", "ingest.pass")
          .execute();
        const ofFirst = events.filter(
          (event) => (JSON.parse(event.data_json) as { runId: string }).runId === runs[0].id,
        );
        expect(ofFirst.length, "one ingest.pass event for the failed run").to.equal(1);
      } finally {
        release();
        await new Promise((resolve) => feed.close(resolve));
      }
    });

    it("a server that accepts but never answers: connecting gives up after connectTimeoutMs, as a store outage", async function () {
      const silent = createServer((socket) => sockets.push(socket));
      const sockets: Socket[] = [];
      await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
      const { port } = silent.address() as AddressInfo;
      const started = Date.now();
      try {
        const error = await openStore({
          databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
          connectTimeoutMs: 300,
        }).then(
          () => null,
          (caught: unknown) => caught,
        );
        // Opening migrates first: a start error (StoreOpenError) whose cause is the store not answering.
        expect(findStoreUnavailable(error), String(error)).to.be.instanceOf(StoreUnavailableError);
        expect(Date.now() - started, "gave up after the connect timeout, not the OS's").to.be.lessThan(10_000);
      } finally {
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => silent.close(resolve));
      }
    });
  });

  describe("the compiled service in a child process (npm run build first)", function () {
    let server: TestPostgres;
    let service: ServiceJob;

    before(async function () {
      server = await startPostgres();
      service = await startServiceJob({
        databaseUrl: server.url,
        env: { INGEST_INTERVAL_S: "1", API_CACHE_TTL_MS: "0", RATE_LIMIT_MAX: "0" },
      });
    });
    after(async function () {
      await service?.stop();
      await server?.stop();
    });

    it("stays up through a restart: 503 STORE_UNAVAILABLE with Retry-After while down, no 500, 200 after, passes and the alert worker go on, SIGTERM still exits 0", async function () {
      const { job, base } = service;
      type Answer = { status: number; code?: string; retryAfter?: string | null; error?: string };
      const answers: Answer[] = [];
      let loading = true;
      const get = async (path: string): Promise<Answer> => {
        try {
          const response = await fetch(`${base}${path}`);
          const body = (await response.json()) as { error?: { code?: string } };
          return { status: response.status, code: body.error?.code, retryAfter: response.headers.get("retry-after") };
        } catch (error) {
          return { status: 0, error: String((error as Error).cause ?? error) };
        }
      };
      const load = (async () => {
        while (loading) answers.push(...(await Promise.all([get("/api/v1/pools"), get("/api/v1/health")])));
      })();
      await waitFor(() => answers.length >= 20, "load before the restart");
      await job.waitFor(/ingestion pass: (ok|partial)/);
      const beforeRestart = job.output.length;

      await server.restart({ downMs: 2000 });
      await waitFor(async () => (await get("/api/v1/pools")).status === 200, "200 after the restart", 60_000);
      const resumed = answers.length;
      await waitFor(() => answers.length >= resumed + 20, "load after the restart");
      loading = false;
      await load;

      expect(job.child.exitCode, job.output).to.equal(null);
      expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 503)).to.deep.equal([]);
      const unavailable = answers.filter((answer) => answer.status === 503);
      expect(unavailable.length, "503s while the database was down").to.be.greaterThan(0);
      for (const answer of unavailable) expect(answer).to.include({ code: "STORE_UNAVAILABLE", retryAfter: "5" });
      expect(answers.slice(-10).map((answer) => answer.status)).to.deep.equal(Array(10).fill(200));

      // The outage either failed the pass that ran into it, or (no pass running) let the lease lapse: the leader stood
      // by and took the lease back once the store answered. Either way a later pass succeeds, nobody restarted.
      await job.waitFor(
        /(ingestion pass failed: |standing by: the ingest lease expired while the store did not answer)[^]*ingestion pass: (ok|partial)/,
      );
      const during = job.output.slice(beforeRestart);
      expect(during).to.match(/store: a connection broke/);
      expect(during.match(/alert delivery: The store does not answer/g) ?? [], "told once").to.have.length(1);

      job.child.kill("SIGTERM");
      expect(await job.exited, job.output).to.equal(0);
    });
  });

  describe("which driver errors mean the store cannot be reached", function () {
    it("PostgreSQL's shutdown and connection SQLSTATEs, socket errors and pg's connection messages; not a refused query", function () {
      const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });
      for (const code of [
        "57P01",
        "57P02",
        "57P03",
        "08000",
        "08001",
        "08003",
        "08006",
        "ECONNREFUSED",
        "ECONNRESET",
        "ETIMEDOUT",
        "EPIPE",
        "SQLITE_BUSY",
        "SQLITE_BUSY_SNAPSHOT",
      ]) {
        expect(isStoreUnreachable(withCode(code)), code).to.equal(true);
      }
      for (const message of [
        "Connection terminated unexpectedly",
        "Connection terminated due to connection timeout",
        "timeout exceeded when trying to connect",
        "Client has encountered a connection error and is not queryable",
      ]) {
        expect(isStoreUnreachable(new Error(message)), message).to.equal(true);
      }
      for (const code of ["23505", "42P01", "40001", "SQLITE_CONSTRAINT"]) {
        expect(isStoreUnreachable(withCode(code)), code).to.equal(false);
      }
      expect(isStoreUnreachable("ECONNREFUSED")).to.equal(false);
    });

    it("the API body of a wrapped store outage is 503 STORE_UNAVAILABLE with Retry-After, its cause hidden", function () {
      const cause = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
      const wrapped = new Error("the pass failed", { cause: new StoreUnavailableError({ cause }) });
      const { status, body, headers } = toErrorBody(wrapped);
      expect(status).to.equal(503);
      expect(body).to.deep.equal({
        code: "STORE_UNAVAILABLE",
        message: "The store does not answer; retry in a few seconds.",
      });
      expect(headers).to.deep.equal({ "retry-after": "5" });
      // A raw driver error (not from the store's own guard) is not judged: 500, as any unknown error.
      expect(toErrorBody(cause).status).to.equal(500);
    });
  });

  describe("SQLite still busy after its busy timeout", function () {
    let temp: TempStore;
    let store: Store;
    let other: BetterSqlite3.Database;

    before(async function () {
      temp = await openTempStore({ prefix: "store-busy-", open: { busyTimeoutMs: 50 } });
      store = temp.store;
      other = new BetterSqlite3(temp.file);
    });
    after(async function () {
      other?.close();
      await temp?.cleanup();
    });

    it("a write that cannot take the lock is a StoreUnavailableError (503), and succeeds once the lock is free", async function () {
      other.exec("BEGIN IMMEDIATE");
      const write = () =>
        store.db
          .insertInto("pools")
          .values({
            chain_id: 1,
            address: "0x" + "ab".repeat(20),
            kind: "amm",
            symbol: "X",
            protocol: "uniswap-v2",
            created_at: 1,
            updated_at: 1,
          })
          .execute();
      const error = await write().then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(error).to.be.instanceOf(StoreUnavailableError);
      expect(toErrorBody(error as Error).status).to.equal(503);
      other.exec("COMMIT");
      await write();
      expect(await store.db.selectFrom("pools").select("symbol").execute()).to.deep.equal([{ symbol: "X" }]);
    });
  });
});
