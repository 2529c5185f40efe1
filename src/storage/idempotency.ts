import type { Kysely } from "kysely";
import type { Database } from "./schema";

/**
 * The first answer to a keyed write sent with an `Idempotency-Key`, keyed by (API key id, idempotency key): a retry
 * gets it back instead of writing again. The replay window is `RETENTION_DAYS`: `pruneStore` (./retention) deletes
 * older records, so a retry within the window never writes twice.
 */
export type IdempotencyRecord = {
  apiKeyId: string;
  idempotencyKey: string;
  /** SHA-256 (hex) of the request as it was first sent: the same key with another request is refused. */
  requestSha256: string;
  status: number;
  /** The response body, JSON text, exactly as first sent. */
  responseJson: string;
  createdAt: number;
};

/** The record of `idempotencyKey` for this API key, if any. */
export async function findIdempotencyRecord(
  db: Kysely<Database>,
  parameters: { apiKeyId: string; idempotencyKey: string },
): Promise<IdempotencyRecord | undefined> {
  const row = await db
    .selectFrom("idempotency_keys")
    .selectAll()
    .where("api_key_id", "=", parameters.apiKeyId)
    .where("idempotency_key", "=", parameters.idempotencyKey)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return {
    apiKeyId: row.api_key_id,
    idempotencyKey: row.idempotency_key,
    requestSha256: row.request_sha256,
    status: Number(row.status),
    responseJson: row.response_json,
    createdAt: Number(row.created_at),
  };
}

/**
 * Claims `idempotencyKey` for this API key with its answer. Returns false, writing nothing, when the pair is already
 * claimed: `ON CONFLICT DO NOTHING`, so a concurrent claim never raises. On PostgreSQL a second claim waits for the
 * first one's transaction and then does nothing (or succeeds, if that transaction rolled back); on SQLite writers are
 * serialized. Call it first in the transaction that writes what the answer reports, and write nothing else when it
 * is false.
 */
export async function claimIdempotencyKey(db: Kysely<Database>, record: IdempotencyRecord): Promise<boolean> {
  const result = await db
    .insertInto("idempotency_keys")
    .values({
      api_key_id: record.apiKeyId,
      idempotency_key: record.idempotencyKey,
      request_sha256: record.requestSha256,
      status: record.status,
      response_json: record.responseJson,
      created_at: record.createdAt,
    })
    .onConflict((oc) => oc.columns(["api_key_id", "idempotency_key"]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}
