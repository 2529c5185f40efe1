import type { Kysely } from "kysely";
import { getAddress, type Address } from "viem";
import { addressesByChain, chunksOf, rowsByPool } from "./batches";
import type { AttestationRow, Database, NewAttestationRow } from "./schema";

/** `attestations.supersedes` of a pool's first attestation. */
export const SUPERSEDES_NONE = "none";

/**
 * Stores one attestation row as given: the tests' seeding. Issuance stores {@link NewAttestation}s
 * ({@link insertAttestations}). A no-op when the same message is already stored (the id is the hash of its canonical
 * message) or when the pool already has an attestation superseding the same one (`supersedes`: unique per pool, so
 * of two leaders that issued from the same state only the first insert counts, on SQLite and PostgreSQL alike).
 *
 * @returns true when the row was inserted, false when it was a no-op.
 */
export async function insertAttestation(db: Kysely<Database>, row: NewAttestationRow): Promise<boolean> {
  return (await insertAttestationRows(db, [row])).has(row.id);
}

/**
 * An attestation issuance stores: a {@link StoredAttestation} with the hash of its model inputs (a pass re-issues only
 * when they changed or it expired), the id of the attestation it supersedes (`SUPERSEDES_NONE` for the pool's first)
 * and when it is stored. Its outcome is written "pending".
 */
export type NewAttestation = StoredAttestation & { inputsHash: string; supersedes: string; createdAt: number };

/** The `attestations` row of a {@link NewAttestation}. */
function toAttestationRow(attestation: NewAttestation): NewAttestationRow {
  return {
    id: attestation.id,
    chain_id: attestation.chainId,
    address: attestation.address,
    issued_at: attestation.issuedAt,
    expiry: attestation.expiry,
    horizon_days: attestation.horizonDays,
    confidence_hundredths: attestation.confidenceHundredths,
    canonical: attestation.canonical,
    signature: attestation.signature,
    attester: attestation.attester,
    floor: attestation.floor,
    depth_at_issuance_usd: attestation.depthAtIssuanceUsd,
    model: attestation.model,
    inputs_hash: attestation.inputsHash,
    outcome: "pending",
    eip712_json: attestation.eip712Json,
    created_at: attestation.createdAt,
    supersedes: attestation.supersedes,
  };
}

/**
 * Stores issued attestations in multi-row statements (one per chunk, never one per row), each as
 * {@link insertAttestation} would: one that conflicts with one already stored (its id, or another successor of the
 * same attestation) is skipped.
 *
 * @returns the ids of the attestations inserted.
 */
export async function insertAttestations(
  db: Kysely<Database>,
  attestations: readonly NewAttestation[],
): Promise<Set<string>> {
  return insertAttestationRows(db, attestations.map(toAttestationRow));
}

async function insertAttestationRows(db: Kysely<Database>, rows: readonly NewAttestationRow[]): Promise<Set<string>> {
  const inserted = new Set<string>();
  if (rows.length === 0) return inserted;
  const values = rows.map((row) => ({ ...row, address: row.address.toLowerCase() }));
  for (const chunk of chunksOf(values, Object.keys(values[0]).length)) {
    const ids = await db
      .insertInto("attestations")
      .values(chunk)
      .onConflict((oc) => oc.doNothing())
      .returning("id")
      .execute();
    for (const { id } of ids) inserted.add(id);
  }
  return inserted;
}

/**
 * A stored attestation as the readers take it: camelCase, its numbers as numbers, the signed message and its v2 block
 * as stored text. The columns only issuance uses (`inputs_hash`, `supersedes`, …) are left out.
 */
export type StoredAttestation = {
  /** keccak256 of the v1 canonical message, 0x-hex. */
  id: string;
  chainId: number;
  /** As stored (lower case). */
  address: string;
  /** Unix seconds. */
  issuedAt: number;
  expiry: number;
  horizonDays: number;
  /** Confidence in hundredths (85 means 0.85). */
  confidenceHundredths: number;
  /** The v1 canonical message exactly as signed (JSON text). */
  canonical: string;
  signature: string;
  attester: string;
  /** The claim: depth stays >= floor × depthAtIssuanceUsd for horizonDays. */
  floor: number;
  depthAtIssuanceUsd: number;
  model: string;
  /** The v2 block as JSON text, when a registry was configured. */
  eip712Json: string | null;
};

/** A stored attestation row as a {@link StoredAttestation}. */
export function toStoredAttestation(row: AttestationRow): StoredAttestation {
  return {
    id: row.id,
    chainId: Number(row.chain_id),
    address: row.address,
    issuedAt: Number(row.issued_at),
    expiry: Number(row.expiry),
    horizonDays: Number(row.horizon_days),
    confidenceHundredths: Number(row.confidence_hundredths),
    canonical: row.canonical,
    signature: row.signature,
    attester: row.attester,
    floor: Number(row.floor),
    depthAtIssuanceUsd: Number(row.depth_at_issuance_usd),
    model: row.model,
    eip712Json: row.eip712_json,
  };
}

/** A pool's latest attestation as issuance compares its next claim with it: with the hash of its model inputs. */
export type IssuedAttestation = StoredAttestation & { inputsHash: string };

/** {@link getLatestAttestation} as a {@link StoredAttestation}. */
export async function getLatestStoredAttestation(
  db: Kysely<Database>,
  chainId: number,
  address: string,
): Promise<StoredAttestation | undefined> {
  const row = await getLatestAttestation(db, chainId, address);
  return row === undefined ? undefined : toStoredAttestation(row);
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
 * {@link getLatestAttestation} of many pools, as {@link IssuedAttestation}s: each pool's most recently issued
 * attestation in the order given (undefined where none), one query per chain and chunk (the rows issued at each pool's
 * latest `issued_at`; of two issued in the same second, the one stored last).
 */
export async function getLatestAttestations(
  db: Kysely<Database>,
  pools: readonly { chainId: number; address: string }[],
): Promise<(IssuedAttestation | undefined)[]> {
  const rows: AttestationRow[] = [];
  for (const [chainId, addresses] of addressesByChain(pools)) {
    for (const chunk of chunksOf(addresses, 1)) {
      const query = db
        .selectFrom("attestations as a")
        .selectAll("a")
        .where("a.chain_id", "=", chainId)
        .where("a.address", "in", chunk)
        .where("a.issued_at", "=", (eb) =>
          eb
            .selectFrom("attestations as b")
            .select((inner) => inner.fn.max("b.issued_at").as("latest"))
            .whereRef("b.chain_id", "=", "a.chain_id")
            .whereRef("b.address", "=", "a.address"),
        )
        .orderBy("a.created_at");
      rows.push(...(await query.execute()));
    }
  }
  const byPool = rowsByPool(rows);
  return pools.map((pool) => {
    const row = byPool.get(pool.chainId, pool.address).at(-1);
    return row === undefined ? undefined : { ...toStoredAttestation(row), inputsHash: row.inputs_hash };
  });
}

/**
 * Every attested pool's most recently issued attestation (its horizon, confidence and expiry), in one query: the rows
 * issued at each pool's latest `issued_at` (the `(chain_id, address, issued_at)` index answers the inner maximum); of
 * two issued in the same second, the one stored last.
 */
export async function listLatestClaims(
  db: Kysely<Database>,
): Promise<{ chainId: number; address: string; horizon: number; confidence: number; expiry: number }[]> {
  const rows = await db
    .selectFrom("attestations as a")
    .select(["a.chain_id", "a.address", "a.horizon_days", "a.confidence_hundredths", "a.expiry", "a.created_at"])
    .where("a.issued_at", "=", (eb) =>
      eb
        .selectFrom("attestations as b")
        .select((inner) => inner.fn.max("b.issued_at").as("latest"))
        .whereRef("b.chain_id", "=", "a.chain_id")
        .whereRef("b.address", "=", "a.address"),
    )
    .orderBy("a.created_at")
    .execute();
  const latest = new Map<string, (typeof rows)[number]>();
  for (const row of rows) latest.set(`${row.chain_id}:${row.address}`, row);
  return [...latest.values()].map((row) => ({
    chainId: Number(row.chain_id),
    address: row.address,
    horizon: Number(row.horizon_days),
    confidence: Number(row.confidence_hundredths) / 100,
    expiry: Number(row.expiry),
  }));
}

/**
 * The pool's attestations whose claim window `[issued_at, issued_at + horizon_days]` overlaps `[from, to)` (Unix
 * seconds): issued before `to` and settling after `from`. Oldest first.
 */
export async function listAttestationsOverlapping(
  db: Kysely<Database>,
  parameters: { chainId: number; address: string; from: number; to: number },
): Promise<StoredAttestation[]> {
  const rows = await db
    .selectFrom("attestations")
    .selectAll()
    .where("chain_id", "=", parameters.chainId)
    .where("address", "=", parameters.address.toLowerCase())
    .where("issued_at", "<", parameters.to)
    .where((eb) => eb(eb("issued_at", "+", eb("horizon_days", "*", 86_400)), ">", parameters.from))
    .orderBy("issued_at")
    .orderBy("created_at")
    .execute();
  return rows.map(toStoredAttestation);
}

/** The depth the first attestation of a pool's UTC day states. */
export interface FirstDepthOfDay {
  chainId: number;
  /** Lowercase. */
  address: string;
  /** The UTC day of `issuedAt` (`YYYY-MM-DD`). */
  day: string;
  /** `depth_at_issuance_usd`: the claim's floor is `floor` × this. */
  depthUsd: number;
  /** Unix seconds. */
  issuedAt: number;
}

/**
 * For each pool and UTC day on which an attestation was issued, the depth the day's first attestation states (the
 * earliest `issued_at`; of two issued in the same second, the one stored first): the depth its claim is anchored on
 * (`depth_at_issuance_usd`). The history's `depthUsd` and the model evaluation's anchor both read it. One query; by
 * chain, address, then day.
 *
 * @param parameters `from`, `to`: Unix seconds, `issued_at` in [from, to); `pool`: one pool only (any address case).
 */
export async function listFirstDepthsByDay(
  db: Kysely<Database>,
  parameters: { from?: number; to?: number; pool?: { chainId: number; address: string } },
): Promise<FirstDepthOfDay[]> {
  let query = db
    .selectFrom("attestations")
    .select(["chain_id", "address", "issued_at", "depth_at_issuance_usd"])
    .orderBy("chain_id")
    .orderBy("address")
    .orderBy("issued_at")
    .orderBy("created_at");
  if (parameters.from !== undefined) query = query.where("issued_at", ">=", parameters.from);
  if (parameters.to !== undefined) query = query.where("issued_at", "<", parameters.to);
  if (parameters.pool !== undefined) {
    query = query
      .where("chain_id", "=", parameters.pool.chainId)
      .where("address", "=", parameters.pool.address.toLowerCase());
  }
  const out: FirstDepthOfDay[] = [];
  const seen = new Set<string>();
  for (const row of await query.execute()) {
    const issuedAt = Number(row.issued_at);
    const day = new Date(issuedAt * 1000).toISOString().slice(0, 10);
    const key = `${Number(row.chain_id)}:${row.address}:${day}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      chainId: Number(row.chain_id),
      address: row.address,
      day,
      depthUsd: Number(row.depth_at_issuance_usd),
      issuedAt,
    });
  }
  return out;
}

/** How many attestations have been issued. */
/** The signer of the newest attestation in the store (EIP-55), or null when there is none. */
export async function newestAttester(db: Kysely<Database>): Promise<Address | null> {
  const row = await db
    .selectFrom("attestations")
    .select("attester")
    .orderBy("issued_at", "desc")
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? getAddress(row.attester) : null;
}

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
