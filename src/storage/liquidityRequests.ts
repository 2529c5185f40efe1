import type { Kysely } from "kysely";
import { formatPoolId } from "@attestation-registry/sdk";
import type { Database, LiquidityRequest } from "./schema";

/** The demand side of the liquidity market: requests written through the keyed write (`src/write`). */

/** A request row as it is stored (a pool or an asset, never both; the key's id, never the key). */
export type NewLiquidityRequest = LiquidityRequest;

/** Stores one request. Call it inside the transaction that also writes its idempotency record and its event. */
export async function insertLiquidityRequest(db: Kysely<Database>, row: NewLiquidityRequest): Promise<void> {
  await db
    .insertInto("liquidity_requests")
    .values({
      ...row,
      pool_address: row.pool_address === null ? null : row.pool_address.toLowerCase(),
      asset_address: row.asset_address === null ? null : row.asset_address.toLowerCase(),
    })
    .execute();
}

/** One request by id. */
export async function getLiquidityRequest(db: Kysely<Database>, id: string): Promise<LiquidityRequest | undefined> {
  const row = await db.selectFrom("liquidity_requests").selectAll().where("id", "=", id).executeTakeFirst();
  return row === undefined ? undefined : normalize(row);
}

/** Requests newest first, optionally only those one key wrote. */
export async function listLiquidityRequests(
  db: Kysely<Database>,
  parameters: { apiKeyId?: string; limit: number },
): Promise<LiquidityRequest[]> {
  let query = db.selectFrom("liquidity_requests").selectAll();
  if (parameters.apiKeyId !== undefined) query = query.where("api_key_id", "=", parameters.apiKeyId);
  const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(parameters.limit).execute();
  return rows.map(normalize);
}

/** A request with the label of the key that wrote it. */
export type OwnedLiquidityRequest = LiquidityRequest & { key_label: string | null };

/** The `api_key_id` of a request a signed-in wallet wrote in the dapp (`POST /app/api/liquidity-requests`), no key used. */
export function walletWriterId(address: string): string {
  return `wallet:${address.toLowerCase()}`;
}

/**
 * The requests written with any key `owner` holds (revoked keys included: the request stays theirs), and those the
 * wallet wrote itself in the dapp (`api_key_id` {@link walletWriterId}), newest first. `owner` is an `api_keys.owner`:
 * a lower-case wallet address for keys created in the dapp.
 */
export async function listLiquidityRequestsByKeyOwner(
  db: Kysely<Database>,
  parameters: { owner: string; limit: number },
): Promise<OwnedLiquidityRequest[]> {
  const rows = await db
    .selectFrom("liquidity_requests")
    .leftJoin("api_keys", "api_keys.id", "liquidity_requests.api_key_id")
    .selectAll("liquidity_requests")
    .select("api_keys.label as key_label")
    .where((eb) =>
      eb.or([
        eb("api_keys.owner", "=", parameters.owner),
        eb("liquidity_requests.api_key_id", "=", walletWriterId(parameters.owner)),
      ]),
    )
    .orderBy("liquidity_requests.created_at", "desc")
    .orderBy("liquidity_requests.id", "desc")
    .limit(parameters.limit)
    .execute();
  return rows.map((row) => ({ ...normalize(row), key_label: row.key_label }));
}

/** How many requests have been received (the roadmap counts them). */
export async function countLiquidityRequests(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("liquidity_requests")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** PostgreSQL hands `double precision` back as a number and `bigint` as a number (openStore); keep one shape. */
function normalize(row: LiquidityRequest): LiquidityRequest {
  return {
    ...row,
    chain_id: Number(row.chain_id),
    amount_usd: Number(row.amount_usd),
    horizon_days: Number(row.horizon_days),
    created_at: Number(row.created_at),
  };
}

/** A stored liquidity request as the API serves it (the keyed write's 201, its replays, and the wallet's own list). */
export type LiquidityRequestView = {
  id: string;
  chainId: number;
  /** The pool's qualified id, `eip155:<chainId>:<address>`, or null when the request names an asset. */
  pool: string | null;
  /** The asset, lower-case, or null when the request names a pool. */
  asset: string | null;
  amountUsd: number;
  horizonDays: number;
  note: string | null;
  /** The id of the API key that wrote it (never the key). */
  apiKeyId: string;
  /** Unix seconds. */
  createdAt: number;
};

/** A stored row in its served shape: the one place that shapes a liquidity request. */
export function toLiquidityRequestView(row: LiquidityRequest): LiquidityRequestView {
  return {
    id: row.id,
    chainId: Number(row.chain_id),
    pool: row.pool_address === null ? null : formatPoolId({ chainId: Number(row.chain_id), address: row.pool_address }),
    asset: row.asset_address,
    amountUsd: Number(row.amount_usd),
    horizonDays: Number(row.horizon_days),
    note: row.note,
    apiKeyId: row.api_key_id,
    createdAt: Number(row.created_at),
  };
}
