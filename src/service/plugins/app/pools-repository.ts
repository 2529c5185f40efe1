import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Kysely } from "kysely";
import { getAddress } from "viem";
import type { AttestationRow, Database, Pool } from "../../../storage/schema";
import { isStale as isStaleValue } from "../../../ingest/freshness";
import { computeHorizon } from "../../../model/horizon";
import { ApiError, ApiErrorCode } from "../../errors";
import { formatPoolId, parsePoolId } from "../../parsePoolId";

declare module "fastify" {
  interface FastifyInstance {
    poolsRepository: PoolsRepository;
  }
}

const DAY_S = 86_400;
const MAX_CACHE_ENTRIES = 10_000;

/** What the repository needs: the store's query layer, the freshness rule and the clock. */
export type PoolsRepositoryOptions = {
  db: Kysely<Database>;
  freshnessWindowS: number;
  /** How long a built response body is reused before it is read again (ms); `invalidate()` drops it at once. */
  cacheTtlMs: number;
  /** Unix seconds. */
  now: () => number;
};

/** The readers behind the routes. Bodies come back serialized, so a cache hit costs a map lookup. */
export type PoolsRepository = ReturnType<typeof createPoolsRepository>;

type Cached = { at: number; json?: string; error?: ApiError };

/**
 * Reads pools and pre-signed attestations from the store and builds the response bodies. Nothing here signs:
 * an attestation is served exactly as the ingestion pass stored it. Bodies are cached for `cacheTtlMs` (and
 * dropped by `invalidate()`, which the main job calls after each pass).
 */
export function createPoolsRepository({ db, freshnessWindowS, cacheTtlMs, now }: PoolsRepositoryOptions) {
  const cache = new Map<string, Cached>();
  // Bumped by invalidate(): a body built from reads that started before it is not cached.
  let generation = 0;
  let index: { at: number; byAddress: Map<string, number[]> } | null = null;

  const isFresh = (entry: { at: number } | null | undefined): entry is { at: number } =>
    entry !== null && entry !== undefined && Date.now() - entry.at < cacheTtlMs;

  async function cached(key: string, build: () => Promise<unknown>): Promise<string> {
    let entry = cache.get(key);
    if (!isFresh(entry)) {
      const started = generation;
      try {
        entry = { at: Date.now(), json: JSON.stringify(await build()) };
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        entry = { at: Date.now(), error };
      }
      if (cacheTtlMs > 0 && started === generation) {
        // Keys come from request paths: bound the map so that random ids cannot grow it without limit.
        if (cache.size >= MAX_CACHE_ENTRIES) cache.clear();
        cache.set(key, entry);
      }
    }
    if (entry.error) throw entry.error;
    return entry.json as string;
  }

  /** Chains on which each tracked address exists, to resolve bare addresses. */
  async function chainsOf(address: string): Promise<number[]> {
    if (!isFresh(index)) {
      const started = generation;
      const rows = await db.selectFrom("pools").select(["chain_id", "address"]).execute();
      const byAddress = new Map<string, number[]>();
      for (const row of rows) {
        const key = row.address.toLowerCase();
        byAddress.set(
          key,
          [...(byAddress.get(key) ?? []), Number(row.chain_id)].sort((a, b) => a - b),
        );
      }
      if (started !== generation || cacheTtlMs === 0) return byAddress.get(address) ?? [];
      index = { at: Date.now(), byAddress };
    }
    return index.byAddress.get(address) ?? [];
  }

  async function resolve(id: string): Promise<{ chainId: number; address: string }> {
    const ref = parsePoolId({ id });
    const chains = await chainsOf(ref.address);
    if (ref.chainId !== null) {
      if (!chains.includes(ref.chainId))
        throw poolNotFound(formatPoolId({ chainId: ref.chainId, address: ref.address }));
      return { chainId: ref.chainId, address: ref.address };
    }
    if (chains.length === 0) throw poolNotFound(ref.address);
    if (chains.length > 1) {
      const candidates = chains.map((chainId) => formatPoolId({ chainId, address: ref.address }));
      throw new ApiError({
        statusCode: 409,
        code: ApiErrorCode.ambiguousPool,
        message: `${ref.address} is tracked on ${chains.length} chains; name the chain, e.g. ${candidates[0]}.`,
        extra: { candidates },
      });
    }
    return { chainId: chains[0], address: ref.address };
  }

  const isStale = (observedAt: number | null, at: number) =>
    isStaleValue({ observedAt, now: at, windowS: freshnessWindowS });

  async function buildPools() {
    const at = now();
    const rows = await db
      .selectFrom("pools")
      .select(["chain_id", "address", "symbol", "protocol", "kind", "depth_usd", "depth_observed_at"])
      .orderBy("chain_id")
      .orderBy("address")
      .execute();
    const pools = rows.map((row) => {
      const observedAt = toNumberOrNull(row.depth_observed_at);
      const chainId = Number(row.chain_id);
      return {
        id: formatPoolId({ chainId, address: row.address }),
        chainId,
        address: row.address.toLowerCase(),
        symbol: row.symbol,
        protocol: row.protocol,
        kind: row.kind,
        depthUsd: toNumberOrNull(row.depth_usd),
        observedAt,
        stale: isStale(observedAt, at),
      };
    });
    const fresh = pools.filter((pool) => !pool.stale && pool.depthUsd !== null);
    const stale = pools.filter((pool) => pool.stale);
    return {
      pools,
      total: { depthUsd: sum(fresh.map((pool) => pool.depthUsd as number)), pools: fresh.length },
      heldOut: {
        depthUsd: sum(stale.filter((pool) => pool.depthUsd !== null).map((pool) => pool.depthUsd as number)),
        pools: stale.map((pool) => pool.id),
      },
      freshnessWindowS,
      asOf: at,
    };
  }

  async function buildAttestation(id: string) {
    const { chainId, address } = await resolve(id);
    const pool = await db
      .selectFrom("pools")
      .selectAll()
      .where("chain_id", "=", chainId)
      .where("address", "=", address)
      .executeTakeFirst();
    if (!pool) throw poolNotFound(formatPoolId({ chainId, address }));
    const row = await db
      .selectFrom("attestations")
      .selectAll()
      .where("chain_id", "=", chainId)
      .where("address", "=", address)
      .orderBy("issued_at", "desc")
      .orderBy("created_at", "desc")
      .limit(1)
      .executeTakeFirst();
    if (!row) {
      const reason = await noAttestationReason(pool);
      throw new ApiError({
        statusCode: 404,
        code: ApiErrorCode.noAttestation,
        message: `No attestation has been issued for ${formatPoolId({ chainId, address })} yet: ${reason}`,
        extra: { pool: formatPoolId({ chainId, address }), reason },
      });
    }
    return attestationBody(pool, row, await windowEvidence(row));
  }

  /** Why a known pool has no attestation: what the horizon model says about its recorded history. */
  async function noAttestationReason(pool: Pool): Promise<string> {
    const observedAt = toNumberOrNull(pool.depth_observed_at);
    if (observedAt === null || pool.depth_usd === null) {
      return "its depth has not been observed yet; the next ingestion pass reads it.";
    }
    const daily = await db
      .selectFrom("pool_daily")
      .select(["day", "min_depth_usd"])
      .where("chain_id", "=", pool.chain_id)
      .where("address", "=", pool.address)
      .orderBy("day")
      .execute();
    const stale = isStale(observedAt, now()) ? " Its last depth observation is older than the freshness window." : "";
    let verdict: string;
    try {
      const result = computeHorizon({
        daily: daily.map((row) => ({ day: row.day, minDepthUsd: Number(row.min_depth_usd) })),
        depthNow: Number(pool.depth_usd),
      });
      verdict =
        result.horizonDays === null
          ? `${result.reason ?? "the horizon model publishes no horizon for this history"}.`
          : `the history now supports a ${result.horizonDays}-day horizon; the next ingestion pass issues it.`;
    } catch {
      verdict = `the horizon model cannot use the ${daily.length} day(s) of history recorded.`;
    }
    return `${verdict}${stale}`;
  }

  /** The lowest depth observed inside the claim's own window so far (evidence only: it settles nothing). */
  async function windowEvidence(row: AttestationRow) {
    const start = Number(row.issued_at);
    const end = start + Number(row.horizon_days) * DAY_S;
    const lowest = await db
      .selectFrom("pool_daily")
      .select(["day", "min_depth_usd", "min_observed_at"])
      .where("chain_id", "=", row.chain_id)
      .where("address", "=", row.address)
      .where("min_observed_at", ">=", start)
      .where("min_observed_at", "<=", end)
      .orderBy("min_depth_usd", "asc")
      .limit(1)
      .executeTakeFirst();
    const at = now();
    return {
      windowStart: start,
      windowEnd: end,
      windowStartDate: isoDay(start),
      windowEndDate: isoDay(end),
      waiting: at < end,
      lowestDepthUsd: lowest ? Number(lowest.min_depth_usd) : null,
      lowestDepthObservedAt: lowest ? Number(lowest.min_observed_at) : null,
      lowestDepthDay: lowest ? lowest.day : null,
      note: "Evidence only: this settles nothing, and no outcome is graded.",
    };
  }

  return {
    /** `GET /api/v1/pools` body, serialized. */
    async poolsJson(): Promise<string> {
      return cached("pools", buildPools);
    },
    /** `GET /api/v1/pool/{pool}` body, serialized; throws {@link ApiError} 400/404/409. */
    async attestationJson(id: string): Promise<string> {
      // A malformed id is rejected before the cache: its message quotes the caller's own spelling, and the cache
      // key is case-folded, so a cached 400 would echo another caller's id.
      parsePoolId({ id });
      return cached(`pool:${id.toLowerCase()}`, () => buildAttestation(id));
    },
    /** Counts and the last ingestion pass, for `GET /api/v1/health`. Never cached; 503 when the store fails. */
    async health() {
      const [pools, attestations, run] = await Promise.all([
        db
          .selectFrom("pools")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow(),
        db
          .selectFrom("attestations")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow(),
        db
          .selectFrom("ingest_runs")
          .select(["started_at", "finished_at", "status"])
          .orderBy("started_at", "desc")
          .limit(1)
          .executeTakeFirst(),
      ]).catch((error: Error) => {
        throw new ApiError({
          statusCode: 503,
          code: ApiErrorCode.unavailable,
          message: "The store does not answer.",
          cause: error,
        });
      });
      return {
        pools: Number(pools.n),
        attestations: Number(attestations.n),
        lastIngest: run
          ? { startedAt: Number(run.started_at), finishedAt: toNumberOrNull(run.finished_at), status: run.status }
          : null,
      };
    },
    /** Drops every cached body (called after an ingestion pass). */
    invalidate(): void {
      generation++;
      cache.clear();
      index = null;
    },
  };
}

/**
 * The attestation as served: the v1 fields exactly as signed (taken from the stored canonical message, so they
 * re-canonicalise byte for byte), the convenience fields, the v2 block when stored, then the claim and its evidence.
 */
function attestationBody(pool: Pool, row: AttestationRow, evidence: unknown) {
  const signed = JSON.parse(row.canonical) as Record<string, string>;
  const eip712 = row.eip712_json === null ? undefined : (JSON.parse(row.eip712_json) as unknown);
  const depthAtIssuanceUsd = Number(row.depth_at_issuance_usd);
  const floor = Number(row.floor);
  return {
    chainId: Number(signed.chainId),
    confidence: Number(signed.confidence),
    expiry: Number(signed.expiresAt),
    horizon: Number(signed.horizonDays),
    issuedAt: Number(signed.issuedAt),
    pool: signed.pool,
    signature: row.signature,
    attester: getAddress(row.attester.toLowerCase()),
    symbol: pool.symbol,
    protocol: pool.protocol,
    outcome: row.outcome,
    ...(eip712 === undefined ? {} : { eip712 }),
    claim: {
      statement: `depth stays at or above floor × depthAtIssuanceUsd for ${Number(signed.horizonDays)} days`,
      floor,
      depthAtIssuanceUsd,
      thresholdUsd: floor * depthAtIssuanceUsd,
      model: row.model,
    },
    evidence,
  };
}

function poolNotFound(id: string): ApiError {
  return new ApiError({
    statusCode: 404,
    code: ApiErrorCode.poolNotFound,
    message: `${id} is not a tracked pool; GET /api/v1/pools lists them.`,
    extra: { pool: id },
  });
}

function toNumberOrNull(value: number | string | null | undefined): number | null {
  return value === null || value === undefined ? null : Number(value);
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

function isoDay(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().slice(0, 10);
}

/** Decorates `fastify.poolsRepository`. */
export default fp(
  async function poolsRepositoryPlugin(fastify: FastifyInstance, options: PoolsRepositoryOptions) {
    fastify.decorate("poolsRepository", createPoolsRepository(options));
  },
  { name: "pools-repository" },
);
