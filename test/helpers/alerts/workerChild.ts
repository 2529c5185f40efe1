/**
 * A delivery worker in its own process, over a SQLite file (for the crash test: the parent kills it with SIGKILL).
 * Reads ALERT_CHILD_FILE (the store) and ALERT_CHILD_LEASE_MS; prints "ready" once the worker runs, then one line
 * per attempt outcome.
 */
import { startAlertWorker } from "../../../src/alerts/startAlertWorker";
import { openStore } from "../../../src/storage/openStore";

async function main(): Promise<void> {
  const store = await openStore({ file: process.env.ALERT_CHILD_FILE! });
  const leaseMs = Number(process.env.ALERT_CHILD_LEASE_MS ?? 1000);
  const worker = startAlertWorker({
    db: store.db,
    retryScheduleS: [0.05, 0.1, 0.2, 0.4],
    allowPrivateTargets: true,
    pollIntervalMs: 20,
    timeoutMs: Math.floor(leaseMs / 2),
    leaseMs,
    onOutcome: (outcome) => process.stdout.write(`${outcome.result} ${outcome.webhookId}\n`),
    onError: (error) => process.stderr.write(`worker error: ${String(error)}\n`),
  });
  process.stdout.write("ready\n");
  process.once("SIGTERM", () => {
    void worker
      .stop()
      .then(() => store.close())
      .then(() => process.exit(0));
  });
}

main().catch((error) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
