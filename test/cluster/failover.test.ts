/**
 * The multi-process scenarios of issue 17 (docs/operations.md#run-it-on-several-machines) on a real PostgreSQL, against
 * `demo:chains`: workers and API processes started as an operator would (`SERVICE_ROLE`, `INSTANCE_ID`, one
 * `DATABASE_URL`), one leader among the workers on a fenced lease, a database that goes away and comes back, and
 * SIGTERM draining.
 *
 * Each scenario has its own cluster (chains, PostgreSQL, processes) and keeps to about a minute: passes every
 * {@link INTERVAL_S} seconds, 20 simulated days.
 */
import { openSocket, watch, within } from "../helpers/reliability/rawHttp";
import { expect } from "chai";
import {
  startCluster,
  startDelayProxy,
  until,
  waitForLeader,
  type Cluster,
  type HttpAnswer,
  type ReadyBody,
  type ServiceProcess,
} from "../helpers/cluster/cluster";
import { sleep } from "../helpers/cluster/processes";
import { readFileSync } from "node:fs";
import type { Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";

/** `INGEST_INTERVAL_S` of every worker. */
const INTERVAL_S = 3;
/** How long the slowed feed holds its `/pools` answer (read once per pass): a pass stays in flight at least this long. */
const FEED_DELAY_MS = 2000;
/** The request of the yields feed that every pass makes once. */
const PER_PASS = /\/pools$/;
/** A standby takes over within two intervals; the wait allows for process and database latency. */
const TAKEOVER_MS = 2 * INTERVAL_S * 1000 + 15_000;
/** The demo's pools, and those observed on chain (all but the silent one). */
const POOLS = 17;
const OBSERVED = 16;

type Run = { id: string; status: string; started_at: number; finished_at: number | null; instance_id: string };
type PassEvent = { runId: string; status: string; instance?: string; observedPools?: number };

/** The cluster's runs, oldest first. */
async function runs(cluster: Cluster, where = "TRUE", values: unknown[] = []): Promise<Run[]> {
  return cluster.sql<Run>(
    `SELECT id, status, started_at, finished_at, instance_id FROM ingest_runs WHERE ${where} ORDER BY started_at, id`,
    values,
  );
}

/** The data of every `ingest.pass` event. */
async function passEvents(cluster: Cluster): Promise<PassEvent[]> {
  const rows = await cluster.sql<{ data_json: string }>(
    "SELECT data_json FROM activity_events WHERE kind = 'ingest.pass' ORDER BY id",
  );
  return rows.map((row) => JSON.parse(row.data_json) as PassEvent);
}

/** `chainId:address` of every pool with an unexpired attestation. */
async function attestedPools(cluster: Cluster): Promise<string[]> {
  const rows = await cluster.sql<{ pool: string }>(
    "SELECT DISTINCT chain_id || ':' || address AS pool FROM attestations WHERE expiry > $1 ORDER BY 1",
    [Math.floor(Date.now() / 1000)],
  );
  return rows.map((row) => row.pool);
}

/** The attestations issued more than once for the same pool and inputs (none, ever). */
async function duplicateAttestations(cluster: Cluster): Promise<unknown[]> {
  return cluster.sql(
    "SELECT chain_id, address, inputs_hash, count(*) AS n FROM attestations GROUP BY 1, 2, 3 HAVING count(*) > 1",
  );
}

async function readyz(service: ServiceProcess): Promise<{ status: number; body: ReadyBody }> {
  const answer = await service.request("/readyz");
  return { status: answer.status, body: answer.body as ReadyBody };
}

describe("cluster: a leader killed mid-pass (kill -9)", function () {
  this.timeout(180_000);

  let cluster: Cluster;
  let feed: Awaited<ReturnType<typeof startDelayProxy>>;
  let workers: ServiceProcess[];
  let api: ServiceProcess;

  before(async function () {
    cluster = await startCluster({ days: 20 });
    // A slow yields feed keeps every pass in flight for FEED_DELAY_MS: the kill lands mid-pass.
    feed = await startDelayProxy(cluster.chains.env.DEFILLAMA_YIELDS_URL, FEED_DELAY_MS, PER_PASS);
    const worker = (name: string) =>
      cluster.start({ name, role: "worker", intervalS: INTERVAL_S, env: { DEFILLAMA_YIELDS_URL: feed.url } });
    const first = await worker("worker-1");
    await first.waitForHttp("/readyz", { timeoutMs: 120_000 });
    workers = [first, await worker("worker-2")];
    api = await cluster.start({ name: "api-1", role: "api" });
    await Promise.all([workers[1].waitForHttp("/readyz"), api.waitForHttp("/readyz")]);
  });

  after(async function () {
    await cluster?.stop();
    await feed?.close();
  });

  it("has one leader among the workers, the other standing by; the api process runs no passes", async function () {
    const leader = await waitForLeader(workers);
    for (const worker of workers) {
      const { status, body } = await readyz(worker);
      expect(status, worker.name).to.equal(200);
      expect(body).to.include({ ready: true, role: "worker", instance: worker.name, leader: worker === leader });
    }
    const { status, body } = await readyz(api);
    expect(status).to.equal(200);
    expect(body).to.include({ ready: true, role: "api", instance: "api-1", leader: null });

    await until("a pass of the leader finished", async () => {
      const done = await runs(cluster, "instance_id = $1 AND status IN ('ok', 'partial')", [leader.name]);
      return done[0];
    });
    // Every run so far is the leader's: the standby and the api process ran none.
    const instances = new Set((await runs(cluster)).map((run) => run.instance_id));
    expect([...instances]).to.deep.equal([leader.name]);
  });

  it("after kill -9 of the leader mid-pass, the standby leads within two intervals; nothing is lost or doubled, and no pass that succeeded is reported failed", async function () {
    const leader = await waitForLeader(workers);
    const standby = workers.find((worker) => worker !== leader)!;
    const attestedBefore = await attestedPools(cluster);
    expect(attestedBefore.length).to.be.greaterThan(0);

    const inFlight = await until(
      "a pass of the leader in flight",
      async () => (await runs(cluster, "instance_id = $1 AND status = 'running'", [leader.name]))[0],
      30_000,
      10,
    );
    const exit = await leader.kill9();
    expect(exit.signal).to.equal("SIGKILL");
    const killedAt = Math.floor(Date.now() / 1000);
    // The slowed feed held the pass: it was still in flight when the process died.
    expect((await runs(cluster, "id = $1", [inFlight.id]))[0].status).to.equal("running");

    await until(
      `${standby.name} leads`,
      async () => ((await readyz(standby)).body.leader ? true : undefined),
      TAKEOVER_MS,
    );
    const takeover = await until(
      "a pass of the new leader finished",
      async () =>
        (
          await runs(cluster, "instance_id = $1 AND status IN ('ok', 'partial') AND started_at >= $2", [
            standby.name,
            killedAt,
          ])
        )[0],
      30_000,
    );

    // The dead leader's run is closed by its heartbeat's age, as interrupted: never as a success.
    const closed = await until(
      "the killed run closed",
      async () => {
        const [run] = await runs(cluster, "id = $1", [inFlight.id]);
        return run.status === "running" ? undefined : run;
      },
      30_000,
    );
    expect(closed.status).to.not.be.oneOf(["ok", "partial"]);

    // No false failed event: no pass but the killed one is reported as not having succeeded (at most once).
    const events = await passEvents(cluster);
    const unsuccessful = events.filter((event) => !["ok", "partial"].includes(event.status));
    expect(unsuccessful.length, JSON.stringify(unsuccessful)).to.be.at.most(1);
    for (const event of unsuccessful) expect(event.runId).to.equal(inFlight.id);
    // Every successful pass's ingest.pass event names the instance that ran it (data.instance).
    const byRun = new Map((await runs(cluster)).map((run) => [run.id, run.instance_id]));
    for (const event of events.filter((e) => !unsuccessful.includes(e))) {
      expect(event.instance, event.runId).to.equal(byRun.get(event.runId));
    }
    const takeoverEvent = events.find((event) => event.runId === takeover.id)!;
    expect(takeoverEvent.instance).to.equal(standby.name);
    expect(takeoverEvent.observedPools).to.equal(OBSERVED);

    // Nothing doubled: one attestation per pool and inputs, one attestation.issued event per attestation.
    expect(await duplicateAttestations(cluster)).to.deep.equal([]);
    const [{ attestations }] = await cluster.sql<{ attestations: string }>(
      "SELECT count(*) AS attestations FROM attestations",
    );
    const [{ issued }] = await cluster.sql<{ issued: string }>(
      "SELECT count(*) AS issued FROM activity_events WHERE kind = 'attestation.issued'",
    );
    expect(Number(issued)).to.equal(Number(attestations));
    // Nothing lost: every pool attested before the kill still is, and the api process serves every pool.
    expect(await attestedPools(cluster)).to.include.members(attestedBefore);
    const pools = await api.request("/api/v1/pools");
    expect(pools.status).to.equal(200);
    expect((pools.body as { pools: unknown[] }).pools).to.have.length(POOLS);
  });
});

describe("cluster: PostgreSQL restarted under load", function () {
  this.timeout(180_000);

  let cluster: Cluster;
  let workers: ServiceProcess[];
  let apis: ServiceProcess[];

  before(async function () {
    cluster = await startCluster({ days: 20 });
    // Everything at the same moment on an empty database, as an orchestrator starts it; the api processes have no
    // ATTESTER_ADDRESS: they learn the attester from the first attestation a worker issues. Every read goes to the
    // database (no response cache) and the load is not rate limited.
    // The test polls each /readyz 20 times a second: above the probes' own per-client limit, which is off here.
    const probes = { PROBE_RATE_LIMIT: "0" };
    const apiEnv = { ...probes, API_CACHE_TTL_MS: "0", RATE_LIMIT_MAX: "0", ATTESTER_ADDRESS: "" };
    const started = await Promise.all([
      ...["worker-1", "worker-2"].map((name) =>
        cluster.start({ name, role: "worker", intervalS: INTERVAL_S, env: probes }),
      ),
      ...["api-1", "api-2"].map((name) => cluster.start({ name, role: "api", env: apiEnv })),
    ]);
    workers = started.slice(0, 2);
    apis = started.slice(2);
    await Promise.all([...workers, ...apis].map((service) => service.waitForHttp("/readyz", { timeoutMs: 120_000 })));
    await waitForLeader(workers);
  });

  it("api processes started with the workers on an empty database, without ATTESTER_ADDRESS, serve the workers' attester", async function () {
    const key = readFileSync(cluster.chains.env.ATTESTER_KEY_FILE, "utf8").trim();
    const expected = privateKeyToAddress((key.startsWith("0x") ? key : `0x${key}`) as Hex);
    for (const api of apis) {
      expect(api.running, api.name).to.equal(true);
      const attester = await api.request("/api/v1/attester");
      expect(attester.status, api.name).to.equal(200);
      expect((attester.body as { attester: string }).attester, api.name).to.equal(expected);
      const pools = await api.request("/api/v1/pools");
      expect(pools.status, api.name).to.equal(200);
    }
  });

  after(async function () {
    await cluster?.stop();
  });

  it("ends no process: reads answer 503 STORE_UNAVAILABLE with Retry-After and /readyz 503, then everything recovers by itself", async function () {
    type Seen = { service: string; path: string; at: number; status: number; answer: HttpAnswer | null };
    const seen: Seen[] = [];
    let loading = true;
    const everyone = [...workers, ...apis];
    const loop = async (service: ServiceProcess, path: string) => {
      while (loading) {
        const at = Date.now();
        const answer = await service.request(path).catch(() => null);
        seen.push({ service: service.name, path, at, status: answer?.status ?? 0, answer });
        await sleep(50);
      }
    };
    const loops = [
      ...apis.map((api) => loop(api, "/api/v1/pools")),
      ...everyone.map((service) => loop(service, "/readyz")),
    ];
    await until("answers before the restart", async () => (seen.length >= 20 ? true : undefined));

    await cluster.postgres.restart({ downMs: 4000 });
    const upAt = Date.now();
    // Recovery without a restart: every process answers again, reads and probes alike.
    await until(
      "every process answering 200 again",
      async () =>
        everyone.every((service) => seen.some((s) => s.service === service.name && s.at > upAt && s.status === 200)) &&
        apis.every((api) =>
          seen.some((s) => s.service === api.name && s.path !== "/readyz" && s.at > upAt && s.status === 200),
        )
          ? true
          : undefined,
      30_000,
    );
    loading = false;
    await Promise.all(loops);

    for (const service of everyone) expect(service.running, `${service.name} is still running`).to.equal(true);
    // Nothing but answers and 503s: never a 500, never a refused connection.
    expect([...new Set(seen.map((s) => s.status))].sort()).to.deep.equal([200, 503]);
    const reads503 = seen.filter((s) => s.path === "/api/v1/pools" && s.status === 503);
    expect(reads503.length, "reads answered 503 while the database was down").to.be.greaterThan(0);
    for (const { answer } of reads503) {
      expect((answer!.body as { error: { code: string } }).error.code).to.equal("STORE_UNAVAILABLE");
      expect(answer!.headers.get("retry-after")).to.match(/^[1-9][0-9]*$/);
    }
    for (const service of everyone) {
      const down = seen.filter((s) => s.service === service.name && s.path === "/readyz" && s.status === 503);
      expect(down.length, `${service.name}: /readyz 503 while the database was down`).to.be.greaterThan(0);
      const body = down[0].answer!.body as ReadyBody;
      expect(body.ready).to.equal(false);
      expect(body.reasons).to.be.an("array").that.is.not.empty;
    }

    // The workers' passes resume on schedule: a pass started after the database came back finishes.
    await until(
      "a pass after the restart",
      async () =>
        (await runs(cluster, "status IN ('ok', 'partial') AND started_at >= $1", [Math.floor(upAt / 1000)]))[0],
      30_000,
    );
    expect(await duplicateAttestations(cluster)).to.deep.equal([]);
  });
});

describe("cluster: SIGTERM drains", function () {
  this.timeout(180_000);

  let cluster: Cluster;
  let feed: Awaited<ReturnType<typeof startDelayProxy>>;
  let worker: ServiceProcess;
  let api: ServiceProcess;

  before(async function () {
    cluster = await startCluster({ days: 20 });
    feed = await startDelayProxy(cluster.chains.env.DEFILLAMA_YIELDS_URL, FEED_DELAY_MS, PER_PASS);
    worker = await cluster.start({
      name: "worker-1",
      role: "worker",
      intervalS: INTERVAL_S,
      env: { DEFILLAMA_YIELDS_URL: feed.url },
    });
    api = await cluster.start({ name: "api-1", role: "api" });
    await Promise.all([worker.waitForHttp("/readyz", { timeoutMs: 120_000 }), api.waitForHttp("/readyz")]);
  });

  after(async function () {
    await cluster?.stop();
    await feed?.close();
  });

  it("api: /readyz turns 503 at once, the request in flight gets its answer, then exit 0", async function () {
    const attested = await until("an attestation to verify", async () => {
      const { body } = await api.request("/api/v1/pools");
      return (body as { pools: { id: string; horizon: number | null }[] }).pools.find((pool) => pool.horizon !== null);
    });
    const { body: attestation } = await api.request(`/api/v1/pool/${attested.id}`);
    const text = JSON.stringify(attestation);
    const half = Math.floor(text.length / 2);

    // The request is in flight: its headers and half its body are in when SIGTERM arrives.
    const socket = await openSocket(api.port, "127.0.0.1");
    const received = watch(socket);
    socket.write(
      `POST /api/v1/verify HTTP/1.1\r\nHost: 127.0.0.1:${api.port}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text.slice(0, half)}`,
    );
    await sleep(300);
    api.term();
    const notReady = await until(
      "/readyz turning 503",
      async () => {
        const answer = await readyz(api);
        return answer.status === 200 ? undefined : answer;
      },
      5_000,
      20,
    );
    expect(notReady.status).to.equal(503);
    expect(notReady.body.ready).to.equal(false);

    socket.write(text.slice(half));
    expect(await within(received.closed, 15_000), "the answer came").to.equal(true);
    expect(received.status(), received.text()).to.equal(200);
    expect(received.text()).to.match(/"valid":(true|false)/);
    expect(await within(api.exited, 20_000), "exited within SHUTDOWN_GRACE_S").to.equal(true);
    expect(await api.exited).to.deep.equal({ code: 0, signal: null });
  });

  it("worker: the pass in flight stops and commits nothing, then exit 0", async function () {
    const snapshot = () =>
      cluster.sql("SELECT chain_id, address, depth_usd, depth_observed_at FROM pools ORDER BY chain_id, address");
    const inFlight = await until(
      "a pass in flight",
      async () => (await runs(cluster, "instance_id = $1 AND status = 'running'", [worker.name]))[0],
      30_000,
      10,
    );
    // The slowed feed holds the pass in its read phase: nothing of it is written yet.
    const before = await snapshot();
    const attestationsBefore = await cluster.sql("SELECT id FROM attestations ORDER BY id");
    worker.term();
    const exited = await within(worker.exited, 20_000);
    expect(exited, "exited within SHUTDOWN_GRACE_S").to.equal(true);
    expect(await worker.exited).to.deep.equal({ code: 0, signal: null });

    expect(await snapshot()).to.deep.equal(before);
    expect(await cluster.sql("SELECT id FROM attestations ORDER BY id")).to.deep.equal(attestationsBefore);
    const [run] = await runs(cluster, "id = $1", [inFlight.id]);
    expect(run.status).to.not.be.oneOf(["ok", "partial"]);
  });
});
