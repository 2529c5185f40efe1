import { expect } from "chai";
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { createSubscription } from "../../src/alerts/createSubscription";
import { startAlertWorker, type AlertWorker } from "../../src/alerts/startAlertWorker";
import { appendActivity } from "../../src/storage/activity";
import type { Store } from "../../src/storage/openStore";
import { openTempStore } from "../helpers/service/app";
import { startReceiver, waitFor, type Receiver } from "../helpers/alerts/receiver";

/** A target that accepts the TCP connection and never answers (nor reads): every attempt runs into its timeout. */
type BlackHole = { url: string; open: () => number; close: () => Promise<void> };
async function startBlackHole(): Promise<BlackHole> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    open: () => sockets.size,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const wallet = (n: number) => `wallet:0x${n.toString(16).padStart(40, "0")}`;
const T = 1_767_225_600;
/** The attempt timeout of these tests: low, so a black hole costs little time. */
const TIMEOUT_MS = 400;
const CONCURRENCY = 4;

/**
 * One owner's subscriptions to a target that never answers cannot take every in-flight slot of the
 * delivery worker; another owner's delivery waits at most one attempt timeout.
 */
describe("alert delivery is shared fairly between owners (loopback black hole, real SQLite)", function () {
  this.timeout(30_000);
  let store: Store;
  let cleanup: () => Promise<void>;
  let blackHole: BlackHole;
  let good: Receiver;
  let worker: AlertWorker | undefined;

  beforeEach(async function () {
    ({ store, cleanup } = await openTempStore());
    blackHole = await startBlackHole();
    good = await startReceiver();
  });
  afterEach(async function () {
    await worker?.stop();
    worker = undefined;
    await good.close();
    await blackHole.close();
    await cleanup();
  });

  const subscribe = (owner: string, url: string, kinds: string[]) =>
    createSubscription({ db: store.db, owner, url, kinds, allowPrivateTargets: true, now: () => T });
  const start = () =>
    startAlertWorker({
      db: store.db,
      // One attempt each in these tests: a black hole's retry would come after the test.
      retryScheduleS: [600],
      allowPrivateTargets: true,
      pollIntervalMs: 20,
      concurrency: CONCURRENCY,
      timeoutMs: TIMEOUT_MS,
      stopGraceMs: 10,
    });

  it("an owner with 20 black-hole subscriptions beside one with a good target: the good one goes out at once", async function () {
    for (let i = 0; i < 20; i++) await subscribe(wallet(1), `${blackHole.url}?s=${i}`, ["pool.stale"]);
    await subscribe(wallet(2), good.url, ["pool.stale"]);
    await appendActivity(store.db, [{ kind: "pool.stale", at: T, summary: "one event for all 21", data: {} }]);
    const startedAt = Date.now();
    worker = start();
    await waitFor(() => good.received.length === 1, "the good owner's delivery", 20_000);
    const waitedMs = Date.now() - startedAt;
    console.log(`      good owner delivered after ${waitedMs} ms (attempt timeout ${TIMEOUT_MS} ms)`);
    expect(waitedMs).to.be.below(TIMEOUT_MS);
    // The black-hole owner holds at most a quarter of the slots (concurrency 4: one).
    expect(blackHole.open()).to.be.at.most(CONCURRENCY / 4);
  });

  it("black holes of 4 owners hold every slot: a new delivery of a 5th owner waits one attempt timeout at most", async function () {
    for (let owner = 1; owner <= 4; owner++) {
      for (let i = 0; i < 5; i++) await subscribe(wallet(owner), `${blackHole.url}?o=${owner}&s=${i}`, ["pool.stale"]);
    }
    await subscribe(wallet(5), good.url, ["pool.fresh"]);
    await appendActivity(store.db, [{ kind: "pool.stale", at: T, summary: "to the black holes", data: {} }]);
    worker = start();
    await waitFor(() => blackHole.open() === CONCURRENCY, "every slot held by a black hole", 10_000);
    await appendActivity(store.db, [{ kind: "pool.fresh", at: T + 1, summary: "to the good owner", data: {} }]);
    const startedAt = Date.now();
    worker.wake();
    await waitFor(() => good.received.length === 1, "the good owner's delivery", 20_000);
    const waitedMs = Date.now() - startedAt;
    console.log(`      good owner delivered after ${waitedMs} ms (attempt timeout ${TIMEOUT_MS} ms)`);
    expect(waitedMs).to.be.below(TIMEOUT_MS + 300);
  });
});
