import type { Kysely } from "kysely";
import type { Database } from "./schema";

const DAY_S = 86_400;

/**
 * The longest window of `GET /api/v1/pool/{pool}/history` (`days` at most 730, docs/market-api.md#pool-history), which
 * draws past claims from `attestations`: an attestation whose claim window reaches into it is never pruned, whatever
 * the retention. (test/retention/pruneStore.test.ts checks it against the route's own maximum.)
 */
export const POOL_HISTORY_MAX_DAYS = 730;

/** Rows deleted per statement: each delete is one short statement (a short lock), repeated until none is left. */
export const DEFAULT_PRUNE_BATCH = 500;

/** Parameters of {@link pruneStore}. */
export interface PruneStoreParameters {
  /** Unix seconds. */
  now: number;
  /** `config.retentionDays` (`RETENTION_DAYS`, default 90): a positive integer. */
  retentionDays: number;
  /** Rows per delete statement. Default {@link DEFAULT_PRUNE_BATCH}. */
  batchSize?: number;
}

/** Rows deleted by one {@link pruneStore}, per table. */
export interface PruneCounts {
  alert_attempts: number;
  alert_outbox: number;
  idempotency_keys: number;
  attestations: number;
  ingest_runs: number;
  sessions: number;
  siwe_nonces: number;
}

/**
 * Deletes what has served its purpose (docs/operations.md, "Retention"), in batches of `batchSize` rows so that no
 * statement holds a lock for long:
 * - `alert_outbox` rows in a final state (`delivered`, `failed`) whose event is older than the retention, or was
 *   removed (a registry event of a block a reorganisation orphaned), with their `alert_attempts`;
 * - `idempotency_keys` older than the retention (the replay window: a retry within it replays the first answer);
 * - `attestations` that are superseded (a later one of the same pool exists), expired, and whose claim window closed
 *   before both the retention and the longest pool history window ({@link POOL_HISTORY_MAX_DAYS}) began, and that no
 *   `accuracy_records` row names; a pool's latest attestation is never pruned;
 * - `ingest_runs` finished before the retention (never a running one);
 * - expired `sessions` and expired `siwe_nonces` (a used nonce is deleted when used).
 * The activity log, the daily history (`pool_daily`, `pool_volume_daily`), campaigns and dex volumes are kept forever.
 *
 * @param db the store's Kysely instance (not a transaction: each batch commits on its own).
 * @param {@link PruneStoreParameters}
 * @returns the rows deleted per table.
 * @throws RangeError when `retentionDays` or `batchSize` is not a positive integer, or `now` not an integer.
 */
export async function pruneStore(db: Kysely<Database>, parameters: PruneStoreParameters): Promise<PruneCounts> {
  const { now, retentionDays, batchSize = DEFAULT_PRUNE_BATCH } = parameters;
  for (const [name, value] of [
    ["retentionDays", retentionDays],
    ["batchSize", batchSize],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(`pruneStore: ${name} must be a positive integer, got ${value}`);
    }
  }
  if (!Number.isSafeInteger(now)) throw new RangeError(`pruneStore: now must be Unix seconds, got ${now}`);
  const cutoff = now - retentionDays * DAY_S;
  const deliveries = await pruneDeliveries(db, { cutoff, batchSize });
  return {
    ...deliveries,
    idempotency_keys: await pruneIdempotencyKeys(db, { cutoff, batchSize }),
    attestations: await pruneAttestations(db, { now, retentionDays, batchSize }),
    ingest_runs: await repeat(batchSize, (limit) =>
      db
        .deleteFrom("ingest_runs")
        .where("id", "in", (eb) =>
          eb
            .selectFrom("ingest_runs")
            .select("id")
            .where("status", "<>", "running")
            .where("finished_at", "<", cutoff)
            .limit(limit),
        )
        .executeTakeFirst(),
    ),
    sessions: await repeat(batchSize, (limit) =>
      db
        .deleteFrom("sessions")
        .where("id_sha256", "in", (eb) =>
          eb.selectFrom("sessions").select("id_sha256").where("expires_at", "<=", now).limit(limit),
        )
        .executeTakeFirst(),
    ),
    siwe_nonces: await repeat(batchSize, (limit) =>
      db
        .deleteFrom("siwe_nonces")
        .where("nonce", "in", (eb) =>
          eb.selectFrom("siwe_nonces").select("nonce").where("expires_at", "<=", now).limit(limit),
        )
        .executeTakeFirst(),
    ),
  };
}

/** Runs a batched delete until a batch deletes fewer rows than its limit; returns the rows deleted in all. */
async function repeat(
  batchSize: number,
  deleteBatch: (limit: number) => Promise<{ numDeletedRows: bigint }>,
): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = Number((await deleteBatch(batchSize)).numDeletedRows);
    total += deleted;
    if (deleted < batchSize) return total;
  }
}

/** Final deliveries whose event is older than `cutoff` or removed, and their attempts: a short transaction per batch. */
async function pruneDeliveries(
  db: Kysely<Database>,
  parameters: { cutoff: number; batchSize: number },
): Promise<Pick<PruneCounts, "alert_attempts" | "alert_outbox">> {
  const counts = { alert_attempts: 0, alert_outbox: 0 };
  for (;;) {
    const ids = (
      await db
        .selectFrom("alert_outbox as o")
        .leftJoin("activity_events as e", "e.id", "o.event_id")
        .select("o.id")
        .where("o.status", "in", ["delivered", "failed"])
        .where((eb) => eb.or([eb("e.at", "<", parameters.cutoff), eb("e.id", "is", null)]))
        .limit(parameters.batchSize)
        .execute()
    ).map((row) => Number(row.id));
    if (ids.length === 0) return counts;
    await db.transaction().execute(async (trx) => {
      const attempts = await trx.deleteFrom("alert_attempts").where("outbox_id", "in", ids).executeTakeFirst();
      // Still final: a row is never reopened, but the condition keeps a delete from ever taking a pending one.
      const outbox = await trx
        .deleteFrom("alert_outbox")
        .where("id", "in", ids)
        .where("status", "in", ["delivered", "failed"])
        .executeTakeFirst();
      counts.alert_attempts += Number(attempts.numDeletedRows);
      counts.alert_outbox += Number(outbox.numDeletedRows);
    });
    if (ids.length < parameters.batchSize) return counts;
  }
}

/** Idempotency records created before `cutoff` (past their replay window). */
async function pruneIdempotencyKeys(
  db: Kysely<Database>,
  parameters: { cutoff: number; batchSize: number },
): Promise<number> {
  return repeat(parameters.batchSize, (limit) =>
    db
      .deleteFrom("idempotency_keys")
      .where((eb) =>
        eb(
          eb.refTuple("api_key_id", "idempotency_key"),
          "in",
          eb
            .selectFrom("idempotency_keys as k")
            .select(["k.api_key_id", "k.idempotency_key"])
            .where("k.created_at", "<", parameters.cutoff)
            .limit(limit)
            .$asTuple("api_key_id", "idempotency_key"),
        ),
      )
      .executeTakeFirst(),
  );
}

/**
 * Superseded, expired attestations whose claim window (`issued_at + horizon_days`) closed before the later of the
 * retention and the longest history window began, and that no accuracy record names.
 */
async function pruneAttestations(
  db: Kysely<Database>,
  parameters: { now: number; retentionDays: number; batchSize: number },
): Promise<number> {
  const { now, retentionDays, batchSize } = parameters;
  // The history's first day starts at most POOL_HISTORY_MAX_DAYS + 1 days ago (the window ends yesterday).
  const settledBefore = now - Math.max(retentionDays, POOL_HISTORY_MAX_DAYS + 1) * DAY_S;
  return repeat(batchSize, (limit) =>
    db
      .deleteFrom("attestations")
      .where("id", "in", (eb) =>
        eb
          .selectFrom("attestations as a")
          .select("a.id")
          .where("a.issued_at", "<", settledBefore)
          .where("a.expiry", "<=", now)
          .where((inner) => inner(inner("a.issued_at", "+", inner("a.horizon_days", "*", DAY_S)), "<=", settledBefore))
          .where((inner) =>
            inner.exists(
              inner
                .selectFrom("attestations as later")
                .select("later.id")
                .whereRef("later.chain_id", "=", "a.chain_id")
                .whereRef("later.address", "=", "a.address")
                .whereRef("later.issued_at", ">", "a.issued_at"),
            ),
          )
          .where((inner) =>
            inner.not(
              inner.exists(
                inner
                  .selectFrom("accuracy_records as r")
                  .select("r.attestation_id")
                  .whereRef("r.attestation_id", "=", "a.id"),
              ),
            ),
          )
          .limit(limit),
      )
      .executeTakeFirst(),
  );
}

/**
 * When the next prune is due, for a leader that prunes once a day: `lastPrunedAt` null (never, in this process) means
 * now. A tiny helper so that the schedule is declared once; the caller runs {@link pruneStore} when it returns true.
 *
 * @example
 * if (pruneDue({ now, lastPrunedAt })) { await pruneStore(db, { now, retentionDays }); lastPrunedAt = now; }
 */
export function pruneDue(parameters: { now: number; lastPrunedAt: number | null; everyS?: number }): boolean {
  const { now, lastPrunedAt, everyS = DAY_S } = parameters;
  return lastPrunedAt === null || now - lastPrunedAt >= everyS;
}
