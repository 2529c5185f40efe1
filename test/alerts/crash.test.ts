import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSubscription } from "../../src/alerts/createSubscription";
import { appendActivity } from "../../src/storage/activity";
import { listAlertOutbox } from "../../src/storage/alertOutbox";
import { openStore, type Store } from "../../src/storage/openStore";
import { startReceiver, waitFor, type Receiver } from "../helpers/alerts/receiver";

const ROOT = join(__dirname, "..", "..");
const CHILD = join(__dirname, "..", "helpers", "alerts", "workerChild.ts");

/** Starts the worker process over `file`; resolves once it prints "ready". */
async function startWorkerProcess(file: string): Promise<{ child: ChildProcess; exited: Promise<unknown> }> {
  const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", CHILD], {
    cwd: ROOT,
    env: { ...process.env, ALERT_CHILD_FILE: file, ALERT_CHILD_LEASE_MS: "1000", TS_NODE_TRANSPILE_ONLY: "true" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`the worker process exited: ${stderr}`);
      return stdout.includes("ready\n");
    },
    "the worker process to start",
    60_000,
  );
  return { child, exited };
}

describe("alerts: a worker process killed with SIGKILL loses nothing", function () {
  let dir: string;
  let store: Store;
  let receiver: Receiver;
  let child: ChildProcess | undefined;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "alerts-crash-"));
    // Every answer takes 100 ms, so the kill lands with attempts in flight and most rows undelivered.
    receiver = await startReceiver(() => ({ status: 200, delayMs: 100 }));
  });
  after(async () => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
    await store?.close();
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a restarted worker delivers every event (at least once, in order per subscription)", async function () {
    this.timeout(120_000);
    const file = join(dir, "service.sqlite");
    store = await openStore({ file });
    const subscriptions: Awaited<ReturnType<typeof createSubscription>>[] = [];
    for (let i = 0; i < 3; i++) {
      subscriptions.push(
        await createSubscription({
          db: store.db,
          owner: `key:k${i}`,
          url: `${receiver.url}?s=${i}`,
          kinds: ["pool.stale"],
          allowPrivateTargets: true,
        }),
      );
    }
    const ids = await appendActivity(
      store.db,
      Array.from({ length: 12 }, (_, n) => ({
        kind: "pool.stale",
        at: 1_767_225_600 + n,
        summary: `e${n}`,
        data: { n },
      })),
    );
    const expected = subscriptions.flatMap((s) => ids.map((id) => `msg_${id}_${s.id}`));

    const first = await startWorkerProcess(file);
    child = first.child;
    await waitFor(() => receiver.received.length >= 6, "a few deliveries");
    child.kill("SIGKILL");
    await first.exited;
    const undelivered = (await Promise.all(subscriptions.map((s) => listAlertOutbox(store.db, s.id))))
      .flat()
      .filter((row) => row.status !== "delivered");
    expect(undelivered.length).to.be.greaterThan(0);
    const beforeRestart = receiver.received.length;

    const second = await startWorkerProcess(file);
    child = second.child;
    await waitFor(
      async () => {
        const rows = (await Promise.all(subscriptions.map((s) => listAlertOutbox(store.db, s.id)))).flat();
        return rows.every((row) => row.status === "delivered");
      },
      "every row delivered after the restart",
      60_000,
    );
    child.kill("SIGTERM");
    await second.exited;

    expect(receiver.received.length).to.be.greaterThan(beforeRestart);
    const received = receiver.received.map((r) => r.headers["webhook-id"] as string);
    expect([...new Set(received)].sort()).to.deep.equal([...expected].sort());
    // Per subscription, the first arrival of each event follows event order.
    for (const s of subscriptions) {
      const firsts = [...new Set(received.filter((id) => id.endsWith(`_${s.id}`)))];
      expect(firsts).to.deep.equal(ids.map((id) => `msg_${id}_${s.id}`));
    }
  });
});
