import { createHash, randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import {
  ChainMismatchError,
  ChainNotTrackedError,
  IdempotencyKeyReusedError,
  InvalidIdempotencyKeyError,
} from "../errors/write";
import { formatPoolId, parsePoolId } from "@attestation-registry/sdk";
import { resolvePool } from "../read/resolvePool";
import { appendActivity, type NewActivity } from "../storage/activity";
import { claimIdempotencyKey, findIdempotencyRecord } from "../storage/idempotency";
import { insertLiquidityRequest, type LiquidityRequestView } from "../storage/liquidityRequests";
import { listPools } from "../storage/pools";
import type { Database } from "../storage/schema";
import { parseLiquidityRequestInput, type LiquidityRequestInput } from "./parseLiquidityRequestInput";

/** What a write needs: the store's query layer and the clock (Unix seconds). The REST routes pass `readContext`. */
export type WriteContext = { db: Kysely<Database>; now: () => number };

export type { LiquidityRequestView };

export type CreateLiquidityRequestParameters = {
  /** The authenticated key's id ({@link authenticateApiKey}): recorded on the request and scoping `idempotencyKey`. */
  apiKeyId: string;
  /** The body as a JSON value; checked by {@link parseLiquidityRequestInput}. */
  input: unknown;
  /** The `Idempotency-Key` the caller sent, if any: 1–255 visible ASCII characters. */
  idempotencyKey?: string | undefined;
};
export type CreateLiquidityRequestReturnType = {
  /** Always 201: only a request that was written is remembered, so a replay repeats a 201. */
  status: number;
  body: LiquidityRequestView;
  /** True when this is the stored answer to an earlier call with the same `idempotencyKey` (nothing was written). */
  replayed: boolean;
};
export type CreateLiquidityRequestErrorType =
  | import("../errors/write").InvalidLiquidityRequestError
  | InvalidIdempotencyKeyError
  | IdempotencyKeyReusedError
  | ChainMismatchError
  | ChainNotTrackedError
  | import("../read/resolvePool").ResolvePoolErrorType;

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
const STATUS_CREATED = 201;

/**
 * Writes a liquidity request: checks the body, resolves the pool it names (or checks that the asset's chain is
 * tracked), then writes the request, its idempotency record and its `liquidity_request.created` activity event in
 * ONE transaction. With an `idempotencyKey`, a retry with the same body (per API key) returns the first answer and
 * writes nothing; the same key with another body is refused. Concurrent retries write one row: the idempotency record
 * is claimed first in the transaction (`ON CONFLICT DO NOTHING`), and the loser replays the winner's answer.
 *
 * Callers that cache reads must invalidate them after a write (`replayed` false): reads count requests.
 *
 * @param context {@link WriteContext}
 * @param {@link CreateLiquidityRequestParameters}
 * @returns the status, the stored request and whether it is a replay.
 * @throws `InvalidLiquidityRequestError` (a bad member, named in `field`), `InvalidPoolIdError`, `PoolNotFoundError`,
 * `AmbiguousPoolError`, {@link ChainMismatchError}, {@link ChainNotTrackedError}, {@link InvalidIdempotencyKeyError},
 * {@link IdempotencyKeyReusedError}.
 * @example
 * import { createLiquidityRequest } from "./src/write/createLiquidityRequest";
 * const { body } = await createLiquidityRequest(
 *   { db, now },
 *   { apiKeyId, input: { chainId: 1, pool: "eip155:1:0x…", amountUsd: 250000, horizonDays: 30 } },
 * );
 */
export async function createLiquidityRequest(
  context: WriteContext,
  { apiKeyId, input: raw, idempotencyKey }: CreateLiquidityRequestParameters,
): Promise<CreateLiquidityRequestReturnType> {
  const input = parseLiquidityRequestInput({ input: raw });
  if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) throw new InvalidIdempotencyKeyError();
  const requestSha256 = hashRequest(input);
  const scope = idempotencyKey === undefined ? null : { apiKeyId, idempotencyKey, requestSha256 };
  if (scope !== null) {
    const replay = await replayOf(context.db, scope);
    if (replay !== null) return replay;
  }

  const pool = input.pool === null ? null : await resolveRequestedPool(context, input.chainId, input.pool);
  if (pool === null) await assertChainTracked(context, input.chainId);
  const body: LiquidityRequestView = {
    id: randomUUID(),
    chainId: input.chainId,
    pool: pool === null ? null : pool.id,
    asset: input.asset,
    amountUsd: input.amountUsd,
    horizonDays: input.horizonDays,
    note: input.note,
    apiKeyId,
    createdAt: context.now(),
  };

  const written = await context.db.transaction().execute(async (tx) => {
    if (scope !== null) {
      const record = {
        ...scope,
        status: STATUS_CREATED,
        responseJson: JSON.stringify(body),
        createdAt: body.createdAt,
      };
      // Claimed first: a concurrent retry that already claimed it wins, and this transaction writes nothing.
      if (!(await claimIdempotencyKey(tx, record))) return false;
    }
    await insertLiquidityRequest(tx, {
      id: body.id,
      chain_id: body.chainId,
      pool_address: pool === null ? null : pool.address,
      asset_address: body.asset,
      amount_usd: body.amountUsd,
      horizon_days: body.horizonDays,
      note: body.note,
      api_key_id: apiKeyId,
      created_at: body.createdAt,
    });
    await appendActivity(tx, [createdEvent(body, pool)]);
    return true;
  });
  if (written) return { status: STATUS_CREATED, body, replayed: false };

  const replay = scope === null ? null : await replayOf(context.db, scope);
  if (replay === null) throw new Error("idempotency record claimed by another write but not found");
  return replay;
}

/** The request's fingerprint for idempotency: its checked members in a fixed order (the pool id case-folded). */
function hashRequest(input: LiquidityRequestInput): string {
  const members = [input.chainId, input.pool?.toLowerCase() ?? null, input.asset, input.amountUsd];
  const text = JSON.stringify([...members, input.horizonDays, input.note]);
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The stored answer for this (API key, idempotency key), if any; refused when it was for another request. */
async function replayOf(
  db: Kysely<Database>,
  scope: { apiKeyId: string; idempotencyKey: string; requestSha256: string },
): Promise<CreateLiquidityRequestReturnType | null> {
  const record = await findIdempotencyRecord(db, scope);
  if (record === undefined) return null;
  if (record.requestSha256 !== scope.requestSha256) throw new IdempotencyKeyReusedError();
  return { status: record.status, body: JSON.parse(record.responseJson) as LiquidityRequestView, replayed: true };
}

/** The tracked pool the request names, which must be on the request's chain. */
async function resolveRequestedPool(
  context: WriteContext,
  chainId: number,
  id: string,
): Promise<{ chainId: number; address: `0x${string}`; id: string }> {
  // A qualified id that names another chain contradicts the body before anything is looked up.
  const ref = parsePoolId({ id });
  if (ref.chainId !== null && ref.chainId !== chainId) {
    throw new ChainMismatchError({ chainId, pool: formatPoolId({ chainId: ref.chainId, address: ref.address }) });
  }
  const pool = await resolvePool(context, { id });
  if (pool.chainId !== chainId) throw new ChainMismatchError({ chainId, pool: pool.id });
  return pool;
}

/** An asset request's chain must carry at least one tracked pool (the tracked pools are a short list). */
async function assertChainTracked(context: WriteContext, chainId: number): Promise<void> {
  const pools = await listPools(context.db);
  if (!pools.some((pool) => pool.chainId === chainId)) throw new ChainNotTrackedError({ chainId });
}

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 0 });

/**
 * The `liquidity_request.created` event. `data` is the request with its pool as `poolId`, without the key's id (the
 * activity log is public): `{id, chainId, poolId, asset, amountUsd, horizonDays, note, createdAt}`.
 */
function createdEvent(body: LiquidityRequestView, pool: { chainId: number; address: string } | null): NewActivity {
  const what = body.pool !== null ? body.pool : `asset ${body.asset} on chain ${body.chainId}`;
  const days = body.horizonDays === 1 ? "1 day" : `${body.horizonDays} days`;
  return {
    kind: "liquidity_request.created",
    at: body.createdAt,
    pool: pool === null ? null : { chainId: pool.chainId, address: pool.address },
    summary: `Liquidity requested: ${usd.format(body.amountUsd)} for ${days} in ${what}`,
    data: {
      id: body.id,
      chainId: body.chainId,
      poolId: body.pool,
      asset: body.asset,
      amountUsd: body.amountUsd,
      horizonDays: body.horizonDays,
      note: body.note,
      createdAt: body.createdAt,
    },
  };
}
