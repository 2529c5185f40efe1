/**
 * Alert delivery rate: events per second that ONE delivery worker delivers to a loopback receiver, over a real SQLite
 * store (claim with a lease, sign with standardwebhooks, POST, record the attempt in a transaction).
 *
 * Run with `npx ts-node --transpile-only bench/alerts.ts` (optional: BENCH_EVENTS, default 2000 per scenario;
 * BENCH_ROUNDS, default 3, best round kept). The receiver is a separate Node process (a bare `http` server answering
 * 200), so it does not share the worker's event loop. Scenarios:
 * - 1 subscription: its events go out one at a time, in event order (head-of-line), so this is the sequential rate;
 * - 16 subscriptions, the worker's default 8 attempts in flight: the same number of deliveries spread over them.
 * Prints a Markdown table; no asserts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ALERT_KINDS } from "../src/alerts/alertKinds";
import { createSubscription } from "../src/alerts/createSubscription";
import { startAlertWorker } from "../src/alerts/startAlertWorker";
import { appendActivity, type NewActivity } from "../src/storage/activity";
import { openStore } from "../src/storage/openStore";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const RECEIVER = `
  const server = require("node:http").createServer((req, res) => {
    req.resume();
    req.on("end", () => res.end("ok"));
  });
  server.listen(0, "127.0.0.1", () => process.stdout.write(server.address().port + "\\n"));
`;

async function startReceiverProcess(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["-e", RECEIVER], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve) =>
    child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim())),
  );
  return { url: `http://127.0.0.1:${port}/hook`, child };
}

/** One round: a fresh store with `subscriptions` subscriptions and EVENTS deliveries in all; returns deliveries/s. */
async function round(url: string, subscriptions: number, concurrency: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "bench-alerts-"));
  const store = await openStore({ file: join(dir, "service.sqlite") });
  try {
    // Each subscription wants its own kind, so EVENTS events make EVENTS deliveries whatever the split.
    const kindOf = (i: number) => ALERT_KINDS[i % ALERT_KINDS.length];
    for (let i = 0; i < subscriptions; i++) {
      await createSubscription({
        db: store.db,
        owner: `key:bench${i}`,
        url,
        kinds: [kindOf(i)],
        allowPrivateTargets: true,
      });
    }
    const events: NewActivity[] = Array.from({ length: EVENTS }, (_, n) => ({
      kind: kindOf(n % subscriptions),
      at: 1_767_225_600 + n,
      pool: { chainId: 1, address: "0x00000000000000000000000000000000000000ab" },
      summary: `bench event ${n}`,
      data: { n, poolId: "eip155:1:0x00000000000000000000000000000000000000ab", field: "depthUsd" },
    }));
    await store.db.transaction().execute((trx) => appendActivity(trx, events));
    const queued = Number(
      (
        await store.db
          .selectFrom("alert_outbox")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    let delivered = 0;
    let finish: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const started = process.hrtime.bigint();
    const worker = startAlertWorker({
      db: store.db,
      retryScheduleS: [1],
      allowPrivateTargets: true,
      concurrency,
      onOutcome: (outcome) => {
        if (outcome.result === "delivered" && ++delivered === queued) finish();
      },
    });
    await done;
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    await worker.stop();
    return queued / seconds;
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const receiver = await startReceiverProcess();
  try {
    const scenarios = [
      { name: "1 subscription (sequential, in event order)", subscriptions: 1, concurrency: 8 },
      { name: "16 subscriptions, 8 attempts in flight (the default)", subscriptions: 16, concurrency: 8 },
    ];
    const best = new Map<string, number>();
    for (let r = 0; r < ROUNDS; r++) {
      for (const scenario of scenarios) {
        const rate = await round(receiver.url, scenario.subscriptions, scenario.concurrency);
        best.set(scenario.name, Math.max(best.get(scenario.name) ?? 0, rate));
      }
    }
    console.log(
      `Alert delivery, one worker, SQLite, loopback receiver (${EVENTS} deliveries per round, best of ${ROUNDS})\n`,
    );
    console.log("| scenario | deliveries/s |\n|---|---:|");
    for (const scenario of scenarios) console.log(`| ${scenario.name} | ${Math.round(best.get(scenario.name)!)} |`);
  } finally {
    receiver.child.kill();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
