import type { Kysely } from "kysely";
import type { AttestationRow, Database, NewAttestationRow } from "./schema";

/** Stores one issued attestation. The id is the hash of its canonical message; the same message twice is a no-op. */
export async function insertAttestation(db: Kysely<Database>, row: NewAttestationRow): Promise<void> {
  await db
    .insertInto("attestations")
    .values({ ...row, address: row.address.toLowerCase() })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
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

/** How many attestations have been issued. */
export async function countAttestations(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("attestations")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
