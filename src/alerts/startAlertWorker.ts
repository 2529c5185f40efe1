import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Kysely } from "kysely";
import { findStoreUnavailable } from "../errors/storage";
import { releaseAlertDelivery } from "../storage/alertOutbox";
import type { Database } from "../storage/schema";
import type { AlertTargetResolver } from "./checkAlertTarget";
import {
  claimDueAlerts,
  deliverClaimedAlert,
  type AlertAttemptOutcome,
  type AlertDeliveryContext,
  type ClaimedAlert,
} from "./deliverAlert";

export type StartAlertWorkerParameters = {
  db: Kysely<Database>;
  /** `ALERTS_RETRY_SCHEDULE_S`: delays in seconds between attempts. */
  retryScheduleS: readonly number[];
  /** `ALERTS_ALLOW_PRIVATE_TARGETS=1` (demo and tests only). */
  allowPrivateTargets: boolean;
  /** How often the outbox is polled for due rows. Default 1000 ms ({@link AlertWorker.wake} polls at once). */
  pollIntervalMs?: number;
  /** Attempts in flight at once (each for another subscription). Default 8. */
  concurrency?: number;
  /**
   * Attempts in flight at once for one account, a wallet with all its keys or a configured key, counted across workers
   * (docs/security.md#keys-subscriptions-and-alerts). Default a quarter of `concurrency` (at least 1): an owner whose
   * targets never answer holds at most that many slots, the others go round robin to the other owners, so its black
   * hole delays another owner's delivery by at most one attempt timeout.
   */
  perOwnerConcurrency?: number;
  /** Cap on one attempt. Default 10 s. */
  timeoutMs?: number;
  /** Cap on the response body read. Default 64 KiB. */
  maxResponseBytes?: number;
  /** How long a claim holds. Default `timeoutMs` + 60 s, so a live worker's claim never lapses mid-attempt. */
  leaseMs?: number;
  /** On stop, how long attempts in flight may take to finish before they are cut short and given back. Default 2 s. */
  stopGraceMs?: number;
  resolve?: AlertTargetResolver;
  /** Unix milliseconds; default the wall clock. */
  nowMs?: () => number;
  random?: () => number;
  /** Default `<host>:<pid>:<random>`. */
  workerId?: string;
  /** Each attempt's outcome (logs, tests). */
  onOutcome?: (outcome: AlertAttemptOutcome) => void;
  /**
   * A poll or an attempt that could not read or write the store; the worker goes on at the next poll. While the store
   * does not answer (`StoreUnavailableError`), only the first failing poll is told, until a poll succeeds again.
   */
  onError?: (error: unknown) => void;
};

/** A running delivery worker. */
export interface AlertWorker {
  /** Looks for due rows now (e.g. after an ingestion pass wrote events), instead of at the next poll. */
  wake(): void;
  /**
   * Stops claiming, lets attempts in flight finish for up to `stopGraceMs`, then cuts the rest short and gives their
   * rows back uncounted (due at once for the next worker). Resolves when nothing is in flight.
   */
  stop(): Promise<void>;
}

/**
 * Starts the alert delivery worker over the outbox: it claims due rows with a lease (safe with several workers,
 * processes or hosts on one database), sends each with a time cap, records each attempt, and retries on
 * `retryScheduleS` until a row is delivered or failed. One subscription's events go out one at a time in event
 * order; the slots go round robin between owners, each with at most `perOwnerConcurrency` in flight. Nothing is lost across a crash: a row is finished only in the transaction that records its attempt, and a
 * crashed worker's claims lapse after `leaseMs`, when another worker (or the restarted one) takes them over with the
 * same `webhook-id` (at-least-once delivery).
 *
 * @param {@link StartAlertWorkerParameters}
 * @returns the {@link AlertWorker}.
 * @example
 * import { startAlertWorker } from "./alerts/startAlertWorker";
 * const worker = startAlertWorker({ db: store.db, ...config.alerts });
 * // …
 * await worker.stop();
 */
export function startAlertWorker(parameters: StartAlertWorkerParameters): AlertWorker {
  const timeoutMs = parameters.timeoutMs ?? 10_000;
  const context: AlertDeliveryContext = {
    db: parameters.db,
    retryScheduleS: parameters.retryScheduleS,
    allowPrivateTargets: parameters.allowPrivateTargets,
    resolve: parameters.resolve,
    timeoutMs,
    maxResponseBytes: parameters.maxResponseBytes ?? 64 * 1024,
    leaseMs: parameters.leaseMs ?? timeoutMs + 60_000,
    nowMs: parameters.nowMs ?? Date.now,
    random: parameters.random ?? Math.random,
    workerId: parameters.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    perOwnerLimit: parameters.perOwnerConcurrency ?? Math.max(1, Math.floor((parameters.concurrency ?? 8) / 4)),
    lastClaimByAccount: new Map(),
  };
  const concurrency = parameters.concurrency ?? 8;
  // A store that is down fails every poll (every second): told once, until a poll reads the outbox again.
  let storeDown = false;
  const onError = (error: unknown) => {
    if (findStoreUnavailable(error) !== null) {
      if (storeDown) return;
      storeDown = true;
    }
    parameters.onError?.(error);
  };
  const inFlight = new Map<number, { controller: AbortController; done: Promise<void> }>();
  let stopped = false;
  let pumping: Promise<void> | null = null;
  let again = false;

  const start = (claimed: ClaimedAlert) => {
    const controller = new AbortController();
    const done = deliverClaimedAlert(context, claimed, controller.signal)
      .then((outcome) => parameters.onOutcome?.(outcome))
      .catch(onError)
      .finally(() => {
        inFlight.delete(claimed.id);
        pump();
      });
    inFlight.set(claimed.id, { controller, done });
  };

  // One claiming loop at a time; a call while it runs makes it go round once more.
  const pump = () => {
    if (stopped) return;
    if (pumping !== null) {
      again = true;
      return;
    }
    pumping = (async () => {
      do {
        again = false;
        const free = concurrency - inFlight.size;
        if (free <= 0) break;
        const claimed = await claimDueAlerts(context, free);
        storeDown = false;
        if (stopped) {
          // Claimed while stopping: give the rows straight back.
          for (const { id, token } of claimed) await releaseAlertDelivery(context.db, { id, token });
          break;
        }
        for (const delivery of claimed) start(delivery);
        if (claimed.length === free) again = true;
      } while (again && !stopped);
    })()
      .catch(onError)
      .finally(() => {
        pumping = null;
        if (again) pump();
      });
  };

  const timer = setInterval(pump, parameters.pollIntervalMs ?? 1000);
  pump();

  return {
    wake: pump,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      if (pumping !== null) await pumping;
      const grace = new Promise((resolve) => setTimeout(resolve, parameters.stopGraceMs ?? 2000).unref());
      await Promise.race([Promise.all([...inFlight.values()].map((entry) => entry.done)), grace]);
      for (const entry of inFlight.values()) entry.controller.abort();
      await Promise.all([...inFlight.values()].map((entry) => entry.done));
    },
  };
}
