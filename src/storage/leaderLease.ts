import { PostgresAdapter, type Kysely } from "kysely";
import { LeaseLostError, PassAbortedError } from "../errors/lease";
import type { Database, Lease } from "./schema";

/**
 * A named lease on the database (docs/operations.md#leadership-and-fencing): at most one holder at a time, with an
 * epoch that grows with every takeover. The lease row is the fence: every write transaction of a pass first calls
 * {@link assertFence}, which locks the row (`FOR SHARE` on PostgreSQL, so a takeover's UPDATE waits until that
 * transaction ends) and throws {@link LeaseLostError} when the row no longer names this holder and epoch or has
 * expired. So a leader that lost its lease commits nothing, and whatever it committed before is visible to the new
 * leader. Times are Unix ms of the caller's clock: a clock that runs ahead or behind moves when a takeover may happen,
 * never what the fence admits.
 */

/** A lease held by this process: what its fenced transactions check. */
export interface LeaseHold {
  name: string;
  /** This process's `INSTANCE_ID`. */
  holder: string;
  /** The epoch of this holding: any takeover since makes it stale. */
  epoch: number;
  /** Unix ms, as of the acquisition or the last renewal. */
  expiresAt: number;
}

/**
 * What a pass's write transactions check first ({@link assertFence}): the lease it runs under (none: no leader
 * election, e.g. a test or a one-off pass) and the signal that stops it (shutdown, or the leadership loop when the
 * lease was lost; its `reason` is thrown when it is a {@link LeaseLostError} or {@link PassAbortedError}).
 */
export interface PassFence {
  lease?: LeaseHold;
  signal?: AbortSignal;
  /** Clock of the lease's expiry check, Unix ms. Default `Date.now`. */
  nowMs?: () => number;
}

/** The lease's row, if it was ever taken. */
export async function readLease(db: Kysely<Database>, name: string): Promise<Lease | undefined> {
  return db.selectFrom("leases").selectAll().where("name", "=", name).executeTakeFirst();
}

/**
 * Takes the lease `name` for `holder` until `nowMs + ttlMs` when it is free: never taken, expired, already named
 * `holder` (this instance restarted under the same `INSTANCE_ID`), or whatever its state with `steal` (SQLite, whose
 * store one process owns). Each takeover increments the epoch. On PostgreSQL a takeover racing another, or a fenced
 * transaction of the holder, waits for it and then re-checks the row, so exactly one process wins.
 *
 * @returns the {@link LeaseHold}, or null when another holder's unexpired lease stands.
 */
export async function acquireLease(
  db: Kysely<Database>,
  parameters: { name: string; holder: string; ttlMs: number; nowMs: number; steal?: boolean },
): Promise<LeaseHold | null> {
  const { name, holder, ttlMs, nowMs, steal = false } = parameters;
  const expiresAt = nowMs + ttlMs;
  const inserted = await db
    .insertInto("leases")
    .values({ name, holder, epoch: 1, expires_at: expiresAt, renewed_at: nowMs })
    .onConflict((oc) => oc.column("name").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0) return { name, holder, epoch: 1, expiresAt };
  const taken = await db
    .updateTable("leases")
    .set((eb) => ({ holder, epoch: eb("epoch", "+", 1), expires_at: expiresAt, renewed_at: nowMs }))
    .where("name", "=", name)
    .$if(!steal, (qb) => qb.where((eb) => eb.or([eb("expires_at", "<=", nowMs), eb("holder", "=", holder)])))
    .returning("epoch")
    .executeTakeFirst();
  return taken ? { name, holder, epoch: Number(taken.epoch), expiresAt } : null;
}

/**
 * Extends a held lease to `nowMs + ttlMs`, if it is still this holding's (same holder and epoch; an expired lease that
 * nobody took over is renewed too).
 *
 * @returns the renewed {@link LeaseHold}, or null when the lease was taken over.
 */
export async function renewLease(
  db: Kysely<Database>,
  parameters: { hold: LeaseHold; ttlMs: number; nowMs: number },
): Promise<LeaseHold | null> {
  const { hold, ttlMs, nowMs } = parameters;
  const expiresAt = nowMs + ttlMs;
  const result = await db
    .updateTable("leases")
    .set({ expires_at: expiresAt, renewed_at: nowMs })
    .where("name", "=", hold.name)
    .where("holder", "=", hold.holder)
    .where("epoch", "=", hold.epoch)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? { ...hold, expiresAt } : null;
}

/** Gives a held lease up (clean shutdown): it is expired at once, so a standby takes it at its next try. */
export async function releaseLease(db: Kysely<Database>, hold: LeaseHold): Promise<void> {
  await db
    .updateTable("leases")
    .set({ expires_at: 0 })
    .where("name", "=", hold.name)
    .where("holder", "=", hold.holder)
    .where("epoch", "=", hold.epoch)
    .execute();
}

/**
 * The fence of a write transaction: call it as the transaction's FIRST statement (`trx` is the transaction). Locks
 * the lease row for the rest of the transaction (PostgreSQL `FOR SHARE`; on SQLite the transaction's snapshot does
 * it: a takeover committed after this read makes the transaction's first write fail) and checks it still names
 * `hold`'s holder and epoch and has not expired at `nowMs`.
 *
 * @throws {@link LeaseLostError} otherwise: the caller's transaction rolls back.
 */
export async function assertLease(trx: Kysely<Database>, hold: LeaseHold, nowMs: number): Promise<void> {
  const row = await trx
    .selectFrom("leases")
    .select(["holder", "epoch", "expires_at"])
    .where("name", "=", hold.name)
    .$if(trx.getExecutor().adapter instanceof PostgresAdapter, (qb) => qb.forShare())
    .executeTakeFirst();
  const lost = (reason: string) => new LeaseLostError({ ...hold, reason });
  if (row === undefined) throw lost("the lease row is gone");
  if (row.holder !== hold.holder || Number(row.epoch) !== hold.epoch) {
    throw lost(`${row.holder} holds it now (epoch ${row.epoch})`);
  }
  if (Number(row.expires_at) <= nowMs) throw lost(`it expired at ${new Date(Number(row.expires_at)).toISOString()}`);
}

/** Throws when the fence's signal was aborted: its reason when it is a lease or stop error, else {@link PassAbortedError}. */
export function throwIfStopped(fence: PassFence | undefined): void {
  const signal = fence?.signal;
  if (!signal?.aborted) return;
  const reason: unknown = signal.reason;
  throw reason instanceof LeaseLostError || reason instanceof PassAbortedError ? reason : new PassAbortedError();
}

/**
 * The first statement of every write transaction of a pass: stops when the pass was asked to stop
 * ({@link throwIfStopped}), then checks the lease it runs under ({@link assertLease}). No fence: nothing to check.
 */
export async function assertFence(trx: Kysely<Database>, fence: PassFence | undefined): Promise<void> {
  throwIfStopped(fence);
  if (fence?.lease) await assertLease(trx, fence.lease, (fence.nowMs ?? Date.now)());
}
