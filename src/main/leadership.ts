import type { Kysely } from "kysely";
import { LeaseLostError, PassAbortedError } from "../errors/lease";
import type { ServiceMetrics } from "../metrics/serviceMetrics";
import type { ServiceStatus } from "../service/serviceStatus";
import {
  acquireLease,
  readLease,
  releaseLease,
  renewLease,
  type LeaseHold,
  type PassFence,
} from "../storage/leaderLease";
import type { Database } from "../storage/schema";
import { startScheduler, type Scheduler } from "./scheduler";

/** The name of the ingestion leader's lease (`leases.name`). */
export const INGEST_LEASE = "ingest";

/**
 * The lease timing for passes every `intervalMs` (a standby takes over within two intervals of the
 * leader's death): the lease lasts 1.5 intervals; the leader renews it, and a standby tries to take it, every third
 * of that, at most every minute. A leader killed just after renewing is replaced by
 * `ttlMs + tickMs` ≤ 2 intervals.
 */
export function leaseTiming(intervalMs: number): { ttlMs: number; tickMs: number } {
  const ttlMs = Math.ceil(intervalMs * 1.5);
  return { ttlMs, tickMs: Math.max(1, Math.min(Math.floor(ttlMs / 3), 60_000)) };
}

/** This process's part in the election of the ingestion leader. */
export interface Leadership {
  /** The fence of a pass run now under the lease, or null while standing by. */
  fence(): PassFence | null;
  /**
   * Starts the passes: while this process leads, `pass` runs `firstDelayMs` from now, then `intervalMs` after each
   * one ends, and at once after each takeover. A pass gets the fence of its term: the term's signal aborts when the
   * lease is lost (reason: a `LeaseLostError`) or at `stop()` (a `PassAbortedError`).
   */
  runPasses(options: { pass: (fence: PassFence) => Promise<void>; firstDelayMs: number }): void;
  /** Stops: aborts the pass in progress (it commits nothing more), waits for it, and releases the lease. Idempotent. */
  stop(): Promise<void>;
}

export type StartLeadershipParameters = {
  db: Kysely<Database>;
  /** `INSTANCE_ID`. */
  holder: string;
  /** Between the end of one pass and the start of the next (`INGEST_INTERVAL_S`). */
  intervalMs: number;
  /** Lease lifetime and renewal period; default {@link leaseTiming} of `intervalMs`. */
  timing?: { ttlMs: number; tickMs: number };
  /** Take the lease whatever its state (SQLite: one process owns the store, a lease left by a killed one is void). */
  steal?: boolean;
  /** Lease name. Default {@link INGEST_LEASE}. */
  name?: string;
  /** `status.leader` follows the lease. */
  status?: ServiceStatus;
  /** `attest_ingest_leader` follows the lease. */
  metrics?: ServiceMetrics;
  log: (line: string) => void;
  /** A pass or lease step that failed (the loops go on). */
  onError: (error: unknown) => void;
  /** Clock, Unix ms. Default `Date.now`. */
  nowMs?: () => number;
};

/**
 * Joins the election of the ingestion leader (docs/operations.md#leadership-and-fencing): tries to take the lease at
 * once (resolves after that first try), then every `tickMs` renews it while leading or tries to take it while standing
 * by. Passes start with {@link Leadership.runPasses}. A renewal that finds the lease taken over ends the term: the pass
 * in progress is aborted and, by the fence its transactions check, commits nothing. A renewal that cannot reach the
 * store keeps the term until the lease's own expiry.
 *
 * @param {@link StartLeadershipParameters}
 * @returns the running {@link Leadership}.
 */
export async function startLeadership(parameters: StartLeadershipParameters): Promise<Leadership> {
  const { db, holder, intervalMs, steal = false, status, metrics, log, onError } = parameters;
  const name = parameters.name ?? INGEST_LEASE;
  const { ttlMs, tickMs } = parameters.timing ?? leaseTiming(intervalMs);
  const nowMs = parameters.nowMs ?? Date.now;
  let term: { hold: LeaseHold; controller: AbortController } | null = null;
  let pass: ((fence: PassFence) => Promise<void>) | null = null;
  let passTimer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  let stopping: Promise<void> | null = null;

  const setLeader = (leading: boolean) => {
    if (status) status.leader = leading;
    metrics?.ingestLeader.set(leading ? 1 : 0);
  };
  const fence = (): PassFence | null => (term ? { lease: term.hold, signal: term.controller.signal, nowMs } : null);
  const endTerm = (reason: Error) => {
    if (passTimer !== null) clearTimeout(passTimer);
    passTimer = null;
    term?.controller.abort(reason);
    term = null;
    setLeader(false);
  };
  const schedulePass = (delayMs: number) => {
    if (stopped || term === null || pass === null || passTimer !== null || running !== null) return;
    passTimer = setTimeout(() => {
      passTimer = null;
      const current = fence();
      if (current === null || pass === null) return;
      running = pass(current)
        .catch(onError)
        .finally(() => {
          running = null;
          schedulePass(intervalMs);
        });
    }, delayMs);
  };

  const renew = async (hold: LeaseHold) => {
    let renewed: LeaseHold | null;
    try {
      renewed = await renewLease(db, { hold, ttlMs, nowMs: nowMs() });
    } catch (error) {
      if (nowMs() >= hold.expiresAt) {
        endTerm(new LeaseLostError({ ...hold, reason: "it expired while the store did not answer" }));
        log(`standing by: the ${name} lease expired while the store did not answer`);
      }
      throw error;
    }
    if (renewed !== null) {
      if (term?.hold === hold) term.hold = renewed;
      return;
    }
    const now = await readLease(db, name).catch(() => undefined);
    const reason = `${now?.holder ?? "another process"} took it over`;
    endTerm(new LeaseLostError({ ...hold, reason }));
    log(`standing by: lost the ${name} lease (epoch ${hold.epoch}): ${reason}`);
  };
  const tick = async () => {
    if (stopped) return;
    if (term !== null) return renew(term.hold);
    const hold = await acquireLease(db, { name, holder, ttlMs, nowMs: nowMs(), steal });
    if (hold === null) return;
    if (stopped) return releaseLease(db, hold);
    term = { hold, controller: new AbortController() };
    setLeader(true);
    log(`leading: took the ${name} lease (epoch ${hold.epoch})`);
    schedulePass(0);
  };

  setLeader(false);
  await tick().catch(onError);
  if (term === null) {
    const lease = await readLease(db, name).catch(() => undefined);
    log(`standing by: ${lease?.holder ?? "another process"} holds the ${name} lease; trying every ${tickMs} ms`);
  }
  const loop: Scheduler = startScheduler({ intervalMs: tickMs, run: tick, onError });

  return {
    fence,
    runPasses(options) {
      pass = options.pass;
      schedulePass(options.firstDelayMs);
    },
    stop() {
      stopping ??= (async () => {
        stopped = true;
        const hold = term?.hold ?? null;
        endTerm(new PassAbortedError());
        await loop.stop();
        await running;
        if (hold !== null) await releaseLease(db, hold).catch(onError);
      })();
      return stopping;
    },
  };
}
