import { expect } from "chai";
import { LeaseLostError, PassAbortedError } from "../../src/errors/lease";
import { leaseTiming, startLeadership, type Leadership } from "../../src/main/leadership";
import { createMetrics, type ServiceMetrics } from "../../src/metrics/serviceMetrics";
import { createServiceStatus, type ServiceStatus } from "../../src/service/serviceStatus";
import { acquireLease, readLease, type PassFence } from "../../src/storage/leaderLease";
import { openStore, type Store } from "../../src/storage/openStore";
import { waitFor } from "../helpers/alerts/receiver";
import { freshPostgresUrl, sharedPostgres } from "../../testkit/postgres";

/** One worker process: its store, status, metrics, leadership and the passes it ran (their fences). */
interface Worker {
  store: Store;
  status: ServiceStatus;
  metrics: ServiceMetrics;
  leadership: Leadership;
  passes: PassFence[];
  lines: string[];
}

const leaderGauge = async (metrics: ServiceMetrics) => (await metrics.ingestLeader.get()).values[0]?.value;

describe("leadership among workers on one PostgreSQL database", function () {
  let url: string;
  const workers: Worker[] = [];
  before(async function () {
    this.timeout(60_000);
    await sharedPostgres();
  });
  beforeEach(async () => {
    url = await freshPostgresUrl();
  });
  afterEach(async () => {
    for (const worker of workers.splice(0)) {
      await worker.leadership.stop();
      await worker.store.close();
    }
  });

  /** A worker whose pass records its fence and, with `hold`, waits until that fence's signal aborts. */
  async function startWorker(name: string, options: { hold?: boolean } = {}): Promise<Worker> {
    const store = await openStore({ databaseUrl: url });
    const status = createServiceStatus({ role: "worker", instance: name });
    const metrics = createMetrics();
    const lines: string[] = [];
    const leadership = await startLeadership({
      db: store.db,
      holder: name,
      intervalMs: 50,
      timing: { ttlMs: 2_000, tickMs: 50 },
      status,
      metrics,
      log: (line) => lines.push(line),
      onError: () => undefined,
    });
    const worker: Worker = { store, status, metrics, leadership, passes: [], lines };
    leadership.runPasses({
      firstDelayMs: 0,
      pass: async (fence) => {
        worker.passes.push(fence);
        if (options.hold) {
          await new Promise<void>((resolve) => fence.signal!.addEventListener("abort", () => resolve()));
        }
      },
    });
    workers.push(worker);
    return worker;
  }

  it("times the lease so that a standby takes over within two intervals", () => {
    expect(leaseTiming(900_000)).to.deep.equal({ ttlMs: 1_350_000, tickMs: 60_000 });
    expect(leaseTiming(2_000)).to.deep.equal({ ttlMs: 3_000, tickMs: 1_000 });
  });

  it("one leads and runs passes, the other stands by; when the leader dies the standby takes over with a new epoch", async () => {
    const a = await startWorker("a");
    const b = await startWorker("b");
    expect([a.status.leader, b.status.leader]).to.deep.equal([true, false]);
    expect([await leaderGauge(a.metrics), await leaderGauge(b.metrics)]).to.deep.equal([1, 0]);
    await waitFor(() => a.passes.length >= 2, "the leader's passes");
    expect(b.passes).to.deep.equal([]);
    expect(b.lines.join("\n")).to.match(/standing by: a holds the ingest lease/);
    expect(a.passes.every((fence) => fence.lease?.epoch === 1 && fence.lease.holder === "a")).to.equal(true);

    // The leader's process dies: it never renews again (its store is gone) and gives nothing up.
    await a.store.close();
    await waitFor(() => b.status.leader === true, "the standby to take over");
    await waitFor(() => b.passes.length >= 1, "the new leader's first pass");
    expect(b.passes[0].lease).to.deep.include({ holder: "b", epoch: 2 });
    expect(await leaderGauge(b.metrics)).to.equal(1);
    await waitFor(() => a.status.leader === false, "the dead leader's term to end at its lease's expiry");
    expect(await leaderGauge(a.metrics)).to.equal(0);
  });

  it("a leader whose lease was taken over aborts its pass in progress with LeaseLostError and stands by", async () => {
    const a = await startWorker("a", { hold: true });
    await waitFor(() => a.passes.length === 1, "the pass");
    const other = await openStore({ databaseUrl: url });
    try {
      await acquireLease(other.db, { name: "ingest", holder: "c", ttlMs: 60_000, nowMs: Date.now(), steal: true });
    } finally {
      await other.close();
    }
    await waitFor(() => a.passes[0].signal!.aborted, "the pass to be aborted");
    expect(a.passes[0].signal!.reason).to.be.instanceOf(LeaseLostError);
    expect(a.status.leader).to.equal(false);
    expect(a.leadership.fence()).to.equal(null);
    expect(a.lines.join("\n")).to.match(/lost the ingest lease \(epoch 1\): c took it over/);
  });

  it("stop() aborts the pass in progress with PassAbortedError and releases the lease for a standby", async () => {
    const a = await startWorker("a", { hold: true });
    await waitFor(() => a.passes.length === 1, "the pass");
    const b = await startWorker("b");
    expect(b.status.leader).to.equal(false);
    await a.leadership.stop();
    expect(a.passes[0].signal!.reason).to.be.instanceOf(PassAbortedError);
    expect([a.status.leader, await leaderGauge(a.metrics)]).to.deep.equal([false, 0]);
    expect(await readLease(b.store.db, "ingest")).to.deep.include({ holder: "a", expires_at: 0 });
    await waitFor(() => b.status.leader === true, "the standby to take the released lease");
    expect(a.passes).to.have.length(1);
  });
});
