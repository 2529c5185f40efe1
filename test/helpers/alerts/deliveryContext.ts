import type { AlertDeliveryContext } from "../../../src/alerts/deliverAlert";
import type { Store } from "../../../src/storage/openStore";

/**
 * A delivery pass's context for tests on loopback receivers: private targets allowed, a 2 s timeout, 1 KiB of
 * response kept, a 30 s lease, the real clock and randomness; the retry schedule and worker id are the test's.
 */
export function testDeliveryContext(
  db: Store["db"],
  context: Pick<AlertDeliveryContext, "retryScheduleS" | "workerId"> & Partial<AlertDeliveryContext>,
): AlertDeliveryContext {
  return {
    db,
    allowPrivateTargets: true,
    timeoutMs: 2000,
    maxResponseBytes: 1024,
    leaseMs: 30_000,
    nowMs: Date.now,
    random: Math.random,
    ...context,
  };
}
