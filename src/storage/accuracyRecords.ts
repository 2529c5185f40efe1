import { sql, type Kysely } from "kysely";
import { toStoredAttestation, type StoredAttestation } from "./attestations";
import { chunksOf } from "./batches";
import type { AccuracyRecordsTable, Database } from "./schema";

const DAY_S = 86_400;

/**
 * Over `attestations as a`: the row is the first attestation of its pool's UTC day (the earliest `issued_at`; of two
 * in the same second, the one stored first), the unit the accuracy record grades. Integer division gives the day on
 * SQLite and PostgreSQL alike.
 */
const FIRST_OF_DAY = sql<boolean>`not exists (select 1 from attestations b where b.chain_id = a.chain_id and b.address = a.address and b.issued_at / ${sql.lit(DAY_S)} = a.issued_at / ${sql.lit(DAY_S)} and (b.issued_at < a.issued_at or (b.issued_at = a.issued_at and b.created_at < a.created_at)))`;

/** Over `attestations as a`: no grade is recorded for the row's pool and UTC day. */
const UNGRADED = sql<boolean>`not exists (select 1 from accuracy_records r where r.chain_id = a.chain_id and r.address = a.address and r.issued_at / ${sql.lit(DAY_S)} = a.issued_at / ${sql.lit(DAY_S)})`;

/**
 * One grade of the accuracy record (docs/model.md#grading): camelCase, numbers as numbers. Storage turns it into the
 * `accuracy_records` row and back.
 */
export type AccuracyRecord = {
  attestationId: string;
  chainId: number;
  /** Lowercase. */
  address: string;
  /** The attestation's issuedAt, Unix seconds. */
  issuedAt: number;
  /** `YYYY-MM-DD`, the UTC day of issuedAt (unique per pool). */
  issuedDay: string;
  horizonDays: number;
  confidenceHundredths: number;
  /** USD: the floor share × the depth the attestation states. */
  floorUsd: number;
  /** `held`, `failed` or `void`. */
  outcome: string;
  /** failed: the first window day's low below the floor; held: the window's lowest low; void: null. */
  lowestDepthUsd: number | null;
  lowestDepthDate: string | null;
  /** Unix seconds: the pass that graded it. */
  gradedAt: number;
};

/** How many claims have been graded. */
export async function countAccuracyRecords(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("accuracy_records")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The claims the accuracy record grades that are not graded yet: the first attestation of each pool's UTC day (the
 * earliest `issued_at`; of two in the same second, the one stored first), with no record for that pool and day. With
 * `settledBefore`, only those whose settle day ended before it (`issued_at` + horizon days < `settledBefore`, the
 * start of a UTC day). Oldest first, at most `limit`.
 *
 * @param parameters `settledBefore`: Unix seconds, the start of the first day that is not final; omit for every
 *   ungraded claim (pending ones included).
 */
export async function listUngradedClaims(
  db: Kysely<Database>,
  parameters: { settledBefore?: number; limit: number },
): Promise<StoredAttestation[]> {
  let query = db.selectFrom("attestations as a").selectAll("a").where(FIRST_OF_DAY).where(UNGRADED);
  if (parameters.settledBefore !== undefined) {
    query = query.where(sql<boolean>`a.issued_at + a.horizon_days * ${sql.lit(DAY_S)} < ${parameters.settledBefore}`);
  }
  const rows = await query.orderBy("a.issued_at").orderBy("a.created_at").limit(parameters.limit).execute();
  return rows.map(toStoredAttestation);
}

/**
 * Writes grades, once: a claim (or a pool and day) already graded keeps its row, whoever wrote it.
 *
 * @param db the transaction that also appends the grades' activity events.
 * @returns the attestation ids written by this call (the others were graded already).
 */
export async function insertAccuracyRecords(
  db: Kysely<Database>,
  records: readonly AccuracyRecord[],
): Promise<Set<string>> {
  const written = new Set<string>();
  for (const chunk of chunksOf(records.map(toAccuracyRow), 200)) {
    const inserted = await db
      .insertInto("accuracy_records")
      .values(chunk)
      .onConflict((oc) => oc.doNothing())
      .returning("attestation_id")
      .execute();
    for (const row of inserted) written.add(row.attestation_id);
  }
  return written;
}

/** Every row of the accuracy record, oldest claim first (by issuance, then pool). */
export async function listAccuracyRecords(db: Kysely<Database>): Promise<AccuracyRecord[]> {
  const rows = await db
    .selectFrom("accuracy_records")
    .selectAll()
    .orderBy("issued_at")
    .orderBy("chain_id")
    .orderBy("address")
    .execute();
  return rows.map(toAccuracyRecord);
}

/** The records of the given attestations, by attestation id. */
export async function getAccuracyRecords(
  db: Kysely<Database>,
  attestationIds: readonly string[],
): Promise<Map<string, AccuracyRecord>> {
  const out = new Map<string, AccuracyRecord>();
  for (const chunk of chunksOf(attestationIds, 200)) {
    if (chunk.length === 0) continue;
    const rows = await db.selectFrom("accuracy_records").selectAll().where("attestation_id", "in", chunk).execute();
    for (const row of rows) out.set(row.attestation_id, toAccuracyRecord(row));
  }
  return out;
}

/**
 * A page of a pool's graded-unit claims (the first attestation of each UTC day), newest first, with its record when
 * graded: `before` is the `issued_at` the page starts below (exclusive), omitted for the first page.
 */
export async function listPoolClaims(
  db: Kysely<Database>,
  parameters: { chainId: number; address: string; before?: number; limit: number },
): Promise<{ attestation: StoredAttestation; record: AccuracyRecord | null }[]> {
  let query = db
    .selectFrom("attestations as a")
    .selectAll("a")
    .where("a.chain_id", "=", parameters.chainId)
    .where("a.address", "=", parameters.address.toLowerCase())
    .where(FIRST_OF_DAY);
  if (parameters.before !== undefined) query = query.where("a.issued_at", "<", parameters.before);
  const rows = await query.orderBy("a.issued_at", "desc").limit(parameters.limit).execute();
  const records = await getAccuracyRecords(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ attestation: toStoredAttestation(row), record: records.get(row.id) ?? null }));
}

/** Claims of the accuracy record's unit (a pool's first attestation of a UTC day) not graded yet. */
export async function countPendingClaims(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("attestations as a")
    .where(FIRST_OF_DAY)
    .where(UNGRADED)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A stored row as an {@link AccuracyRecord}: numbers as numbers (PostgreSQL returns bigint columns as strings). */
function toAccuracyRecord(row: AccuracyRecordsTable): AccuracyRecord {
  return {
    attestationId: row.attestation_id,
    chainId: Number(row.chain_id),
    address: row.address,
    issuedAt: Number(row.issued_at),
    issuedDay: row.issued_day,
    horizonDays: Number(row.horizon_days),
    confidenceHundredths: Number(row.confidence_hundredths),
    floorUsd: Number(row.floor_usd),
    outcome: row.outcome,
    lowestDepthUsd: row.lowest_depth_usd === null ? null : Number(row.lowest_depth_usd),
    lowestDepthDate: row.lowest_depth_date,
    gradedAt: Number(row.graded_at),
  };
}

/** The `accuracy_records` row of an {@link AccuracyRecord} (columns in the table's order). */
function toAccuracyRow(record: AccuracyRecord): AccuracyRecordsTable {
  return {
    attestation_id: record.attestationId,
    chain_id: record.chainId,
    address: record.address,
    issued_at: record.issuedAt,
    issued_day: record.issuedDay,
    horizon_days: record.horizonDays,
    confidence_hundredths: record.confidenceHundredths,
    floor_usd: record.floorUsd,
    outcome: record.outcome,
    lowest_depth_usd: record.lowestDepthUsd,
    lowest_depth_date: record.lowestDepthDate,
    graded_at: record.gradedAt,
  };
}
