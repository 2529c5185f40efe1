import type { Kysely } from "kysely";
import type { AttestationRow, Database, NewAttestationRow } from "./schema";

/**
 * Stores one issued attestation. The id is the hash of its canonical message; the same message twice is a no-op.
 *
 * @returns true when the row was inserted, false when it was already there.
 */
export async function insertAttestation(db: Kysely<Database>, row: NewAttestationRow): Promise<boolean> {
  const result = await db
    .insertInto("attestations")
    .values({ ...row, address: row.address.toLowerCase() })
    .onConflict((oc) => oc.column("id").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** The pool's most recently issued attestation, if any. */
export async function getLatestAttestation(
  db: Kysely<Database>,
  chainId: number,
  address: string,
): Promise<AttestationRow | undefined> {
  return db
    .selectFrom("attestations")
    .selectAll()
    .where("chain_id", "=", chainId)
    .where("address", "=", address.toLowerCase())
    .orderBy("issued_at", "desc")
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
}

/**
 * The pool's attestations whose claim window `[issued_at, issued_at + horizon_days]` overlaps `[from, to)` (Unix
 * seconds): issued before `to` and settling after `from`. Oldest first.
 */
export async function listAttestationsOverlapping(
  db: Kysely<Database>,
  parameters: { chainId: number; address: string; from: number; to: number },
): Promise<AttestationRow[]> {
  return db
    .selectFrom("attestations")
    .selectAll()
    .where("chain_id", "=", parameters.chainId)
    .where("address", "=", parameters.address.toLowerCase())
    .where("issued_at", "<", parameters.to)
    .where((eb) => eb(eb("issued_at", "+", eb("horizon_days", "*", 86_400)), ">", parameters.from))
    .orderBy("issued_at")
    .orderBy("created_at")
    .execute();
}

/** How many attestations have been issued. */
export async function countAttestations(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("attestations")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many distinct pools have at least one attestation. */
export async function countAttestedPools(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom((eb) => eb.selectFrom("attestations").select(["chain_id", "address"]).distinct().as("attested"))
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many attestations carry `outcome` (every stored one is "pending": nothing grades a claim). */
export async function countAttestationsByOutcome(db: Kysely<Database>, outcome: string): Promise<number> {
  const row = await db
    .selectFrom("attestations")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("outcome", "=", outcome)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The latest expiry (Unix seconds) of each attested pool: a pool is attested now when it is in the future. */
export async function getLatestExpiryByPool(
  db: Kysely<Database>,
): Promise<{ chainId: number; address: string; expiry: number }[]> {
  const rows = await db
    .selectFrom("attestations")
    .select((eb) => ["chain_id", "address", eb.fn.max("expiry").as("expiry")])
    .groupBy(["chain_id", "address"])
    .execute();
  return rows.map((row) => ({ chainId: Number(row.chain_id), address: row.address, expiry: Number(row.expiry) }));
}
