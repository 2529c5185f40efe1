import type { ColumnType, Insertable, Selectable, Updateable } from "kysely";

/**
 * The database schema: the one contract between ingestion (writes) and the API (reads).
 *
 * Conventions: times are Unix seconds (integers); USD amounts are `double precision`; addresses are lower-case
 * `0x…` text; block numbers and raw token amounts are decimal strings (they exceed 2^53). Every value that is
 * published carries the time it was observed, so freshness is decided at read time and never by deleting data.
 * A pass only ever writes the columns it has new values for: a failed or missed pass leaves stored values alone.
 */
export interface Database {
  pools: PoolsTable;
  pool_daily: PoolDailyTable;
  attestations: AttestationsTable;
  campaigns: CampaignsTable;
  dex_volumes: DexVolumesTable;
  liquidity_requests: LiquidityRequestsTable;
  ingest_runs: IngestRunsTable;
  activity_events: ActivityEventsTable;
  pool_volume_daily: PoolVolumeDailyTable;
  pool_volume_hourly: PoolVolumeHourlyTable;
  log_cursors: LogCursorsTable;
  token_prices: TokenPricesTable;
  api_keys: ApiKeysTable;
  idempotency_keys: IdempotencyKeysTable;
  accuracy_records: AccuracyRecordsTable;
  campaign_announcements: CampaignAnnouncementsTable;
  siwe_nonces: SiweNoncesTable;
  sessions: SessionsTable;
  alert_subscriptions: AlertSubscriptionsTable;
  alert_subscription_kinds: AlertSubscriptionKindsTable;
  alert_outbox: AlertOutboxTable;
  alert_attempts: AlertAttemptsTable;
  model_evaluations: ModelEvaluationsTable;
  leases: LeasesTable;
}

/** One tracked pool, keyed by (chain_id, address), with the latest observed value of every measured field. */
export interface PoolsTable {
  chain_id: number;
  address: string;
  kind: "amm" | "lending";
  symbol: string;
  protocol: string;
  /** DefiLlama yields pool uuid, if the pools file maps one. */
  defillama_id: string | null;
  /** Merkl opportunity identifier, if the pools file maps one. */
  merkl_id: string | null;
  /** Depth in USD from on-chain reads: AMM reserves valued at prices, lending supplied − borrowed (exitable). */
  depth_usd: number | null;
  depth_observed_at: number | null;
  depth_block: string | null;
  /** Exitability in USD where exact (lending: supplied − borrowed); null where not exact. Time: exitable_observed_at. */
  exitable_usd: number | null;
  /** Raw on-chain state as JSON text (reserves, supplied, borrowed, tokens, decimals, prices used). */
  state_json: string | null;
  /** Lending supply rate, stored as a percent (3.2 means 3.2 %): never multiply by 100 again. */
  supply_rate_percent: number | null;
  supply_rate_observed_at: number | null;
  /** From the DefiLlama yields feed (`tvlUsd`); `feed_observed_at` is when the feed last listed the pool. */
  tvl_usd: number | null;
  /**
   * The yields feed's `apy` (base + reward, a percent), refreshed only when the feed's row carries a value; its time
   * is `apy_observed_at`. The AMM yield dimension (a lending pool's yield is `supply_rate_percent`).
   */
  apy_percent: number | null;
  feed_observed_at: number | null;
  /**
   * AMM: USD volume of the pool's own `Swap` logs in the hourly buckets of the 24 h up to the block the pass was
   * pinned to (`pool_volume_hourly`, hour > block time − 86 400). Lending: always null (not measured).
   */
  volume_24h_usd: number | null;
  /** The pinned block's time, or the older price's timestamp when a price was older (docs/data.md). */
  volume_observed_at: number | null;
  /**
   * Why the pool has no attestation from the last issuance check (e.g. "insufficient history: …", "no fresh depth
   * observation"); null when the check issued or kept one. Added by migration 002.
   */
  issue_reason: string | null;
  /** When issuance last looked at this pool, Unix seconds. Added by migration 002. */
  issue_checked_at: number | null;
  /** When `apy_percent` was last reported with a value (a row without one does not refresh it). Migration 003. */
  apy_observed_at: number | null;
  /** When `exitable_usd` was observed on chain. Migration 003. */
  exitable_observed_at: number | null;
  /** `"fresh"` or `"stale"` as of the last pass (null before): a change writes pool.fresh / pool.stale. Migration 003. */
  freshness_state: "fresh" | "stale" | null;
  created_at: number;
  updated_at: number;
}

/** One row per pool per UTC day: the day's LOWEST observed depth (not the closing depth). */
export interface PoolDailyTable {
  chain_id: number;
  address: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  min_depth_usd: number;
  min_observed_at: number;
  min_block: string | null;
  last_observed_at: number;
  samples: number;
}

/** Every attestation the service issued. Served pre-signed; never re-signed per request. */
export interface AttestationsTable {
  /** keccak256 of the v1 canonical message, 0x-hex. */
  id: string;
  chain_id: number;
  address: string;
  issued_at: number;
  expiry: number;
  horizon_days: number;
  /** Confidence in hundredths (85 means 0.85), so the two-digit rendering is exact. */
  confidence_hundredths: number;
  canonical: string;
  signature: string;
  attester: string;
  /** The claim: depth stays >= floor × depth_at_issuance_usd for horizon_days. */
  floor: number;
  depth_at_issuance_usd: number;
  model: string;
  /** Hash of the model inputs, so a pass re-issues only when they changed (or the previous one expired). */
  inputs_hash: string;
  /**
   * Written "pending" at issuance and never updated: a grade is a row of `accuracy_records`, which every reader of an
   * outcome reads.
   */
  outcome: string;
  /** The v2 block `{domain, types, primaryType, message, signature}` as JSON text, when a registry is configured. */
  eip712_json: string | null;
  created_at: number;
  /**
   * The id of the pool's latest attestation when this one was issued, `"none"` for the pool's first (null on rows
   * issued before version 008). Unique per pool: an attestation has at most one successor, so two leaders that read
   * the same state cannot both issue.
   */
  supersedes: string | null;
}

/**
 * Incentive campaigns from Merkl, keyed by (`distribution_chain_id`, `id`): Merkl makes a campaign id unique only per
 * distribution chain. Deliberately not joined to pools: the two sources share no key.
 */
export interface CampaignsTable {
  /** Merkl's `campaignId`. */
  id: string;
  /** The chain whose Merkl distributor pays the rewards (may differ from `chain_id`). */
  distribution_chain_id: number;
  /** The opportunity's chain (where the pool is). */
  chain_id: number;
  opportunity_id: string;
  /** The opportunity's identifier as Merkl gives it (often a pool or vault address). */
  identifier: string;
  name: string | null;
  type: string | null;
  status: string | null;
  reward_token: string | null;
  amount: string | null;
  apr_percent: number | null;
  start_ts: number | null;
  end_ts: number | null;
  observed_at: number;
}

/** Daily dex volume per chain and protocol from DefiLlama. */
export interface DexVolumesTable {
  chain: string;
  protocol: string;
  day: string;
  volume_usd: number;
  observed_at: number;
}

/** The demand side of a liquidity market: written only through the keyed `POST /api/v1/liquidity-requests`. */
export interface LiquidityRequestsTable {
  id: string;
  chain_id: number;
  /** The pool asked for, or null when the request names an asset. */
  pool_address: string | null;
  /** The asset asked for, or null when the request names a pool. */
  asset_address: string | null;
  amount_usd: number;
  horizon_days: number;
  note: string | null;
  /** Which key wrote it (`api_keys.id`), never the key. */
  api_key_id: string;
  created_at: number;
}

/** One ingestion pass: started, then finished with a status and what each source did. */
export interface IngestRunsTable {
  id: string;
  started_at: number;
  finished_at: number | null;
  status: "running" | "ok" | "partial" | "failed";
  /** JSON text: `{ [source]: { ok: boolean, error?: string, rows?: number } }`. */
  sources_json: string;
  /** The `INSTANCE_ID` of the process that ran the pass (null on runs from before version 008). */
  instance_id: string | null;
  /**
   * Unix seconds, renewed while the pass runs (null on runs from before version 008: read as `started_at`). A
   * "running" run whose heartbeat is old was left by a process that stopped: the next pass closes it as interrupted.
   */
  heartbeat_at: number | null;
}

/**
 * A named lease (`ingest`, the ingestion leader's): held by one process until `expires_at`, renewed by
 * it, taken over by another once expired. `epoch` grows with every takeover: a pass's write transactions check the
 * (holder, epoch) they started under, so a leader that lost its lease commits nothing (`src/storage/leaderLease.ts`).
 */
export interface LeasesTable {
  name: string;
  /** The holder's `INSTANCE_ID`. */
  holder: string;
  epoch: number;
  /** Unix ms. */
  expires_at: number;
  /** Unix ms of the last acquisition or renewal. */
  renewed_at: number;
}

/** The activity log: one row per event, written in the same transaction as the change it reports. Append-only. */
export interface ActivityEventsTable {
  /** Monotonic: the paging cursor. */
  id: Generated<number>;
  /** e.g. `ingest.pass`, `attestation.issued`, `pool.stale`, `campaign.ended`, `liquidity_request.created`. */
  kind: string;
  at: number;
  /** The pool the event is about, if any. */
  chain_id: number | null;
  address: string | null;
  summary: string;
  /** JSON text of the event's data. */
  data_json: string;
}

/** One row per tracked AMM pool per UTC day: the USD volume of its own `Swap` logs, read on chain. */
export interface PoolVolumeDailyTable {
  chain_id: number;
  address: string;
  day: string;
  volume_usd: number;
  swaps: number;
  /**
   * First and last block of the reads that covered the day (decimal text): a superset of the day's blocks. A day
   * with no swap has a row with volume 0 once a read covered it (no row: not read).
   */
  first_block: string;
  last_block: string;
  /**
   * Timestamp of the last block read into the day's figure, Unix seconds. The day is complete once this is at or
   * after the next UTC midnight; before that it is the day so far.
   */
  observed_at: number;
}

/** The same volume by UTC hour (`hour` = Unix seconds of the hour's start), kept for a few days: the rolling 24 h. */
export interface PoolVolumeHourlyTable {
  chain_id: number;
  address: string;
  hour: number;
  volume_usd: number;
  swaps: number;
}

/** Where a log reader resumes: the first block it has not read, per source (`swaps`, `registry`) and contract. */
export interface LogCursorsTable {
  source: string;
  chain_id: number;
  address: string;
  /** The first block not read yet, decimal text. */
  next_block: string;
  /**
   * Timestamp of block `next_block − 1`, the last one read (Unix seconds). A cursor started by the first pass's
   * lookback holds the start of the lookback's UTC day minus one second.
   */
  last_block_time: number;
  /** Hash of block `next_block − 1` when it was read (checked at the next pass); null when unknown. */
  last_block_hash: string | null;
  /** The pass that last moved it (its clock), Unix seconds. */
  updated_at: number;
}

/** Cached token prices with the time the source observed them (a stale price makes the value it prices stale). */
export interface TokenPricesTable {
  chain_id: number;
  token: string;
  price_usd: number;
  /** The source's own timestamp of the price (DefiLlama's `timestamp`), not when it was fetched. */
  observed_at: number;
  /** `defillama-coins` or `onchain`. */
  source: string;
}

/** API keys for the keyed writes: only the SHA-256 of a key is stored. */
export interface ApiKeysTable {
  id: string;
  key_sha256: string;
  /** `env` (from API_KEYS) or the wallet address that created it. */
  owner: string;
  label: string | null;
  created_at: number;
  revoked_at: number | null;
}

/** The first answer to a keyed write with an `Idempotency-Key`, replayed for a retry. */
export interface IdempotencyKeysTable {
  api_key_id: string;
  idempotency_key: string;
  /** SHA-256 of the request body: the same key with another body is refused. */
  request_sha256: string;
  status: number;
  response_json: string;
  created_at: number;
}

/** Which campaign events were written: each campaign's start and end are announced once, keyed like `campaigns`. */
export interface CampaignAnnouncementsTable {
  distribution_chain_id: number;
  campaign_id: string;
  /** `campaign.started` or `campaign.ended`. */
  kind: string;
  at: number;
}

/** Graded claims. Empty: nothing grades a claim yet, and no code path writes here. */
/**
 * The accuracy record (docs/model.md#grading): one graded claim per pool and UTC day (the day's first attestation),
 * written once by the leader's pass, never updated.
 */
export interface AccuracyRecordsTable {
  attestation_id: string;
  chain_id: number;
  /** Lowercase. */
  address: string;
  /** The attestation's issuedAt, Unix seconds. */
  issued_at: number;
  /** `YYYY-MM-DD`, the UTC day of issued_at (unique per pool). */
  issued_day: string;
  horizon_days: number;
  confidence_hundredths: number;
  /** USD: the floor share × the depth the attestation states. */
  floor_usd: number;
  /** `held`, `failed` or `void`. */
  outcome: string;
  /** failed: the first window day's low below the floor; held: the window's lowest low; void: null. */
  lowest_depth_usd: number | null;
  lowest_depth_date: string | null;
  /** Unix seconds: the pass that graded it. */
  graded_at: number;
}

/** An alert subscription (docs/alerts.md): a target URL that receives the activity events of the kinds it names. */
export interface AlertSubscriptionsTable {
  id: string;
  /** `key:<api_keys.id>` (the keyed routes) or `wallet:<lower-case address>` (the dapp). */
  owner: string;
  /**
   * The account its caps and delivery share count in: `wallet:<address>` for a wallet's own and for those
   * of every key the wallet created; `key:<id>` (the owner) for a configured key's.
   */
  account: string;
  /** The target, as normalized by the WHATWG URL parser. */
  url: string;
  /** `whsec_` + base64 of 32 random bytes, shown once. Stored as is: delivery signs with it (HMAC). */
  secret: string;
  /**
   * `active`, or `paused` (a delivery reached the failed state, or its API key was revoked; nothing is sent or queued
   * until resumed).
   */
  state: "active" | "paused";
  created_at: number;
  paused_at: number | null;
  paused_reason: string | null;
  /** The last failed attempt's error and time (Unix seconds). */
  last_error: string | null;
  last_error_at: number | null;
  last_delivered_at: number | null;
  /** The one pool the subscription is limited to (chain and lower-case address), or both null: every pool. Migration 014. */
  pool_chain_id: number | null;
  pool_address: string | null;
}

/** The kinds a subscription wants, one row each (`position` keeps the order given). */
export interface AlertSubscriptionKindsTable {
  kind: string;
  subscription_id: string;
  position: number;
}

/**
 * The outbox: one row per (activity event, subscription), inserted in the event's own transaction. The `webhook-id`
 * is derived from the pair, so it is the same on every attempt. Times are Unix milliseconds.
 */
export interface AlertOutboxTable {
  id: Generated<number>;
  subscription_id: string;
  event_id: number;
  /** `pending` (to send or to retry), `delivered` (a 2xx), `failed` (the retry schedule ran out). */
  status: "pending" | "delivered" | "failed";
  /** Attempts finished (each has its `alert_attempts` row). */
  attempts: number;
  /** Not sent before this time (0: at once). */
  next_attempt_at_ms: number;
  /** The worker's claim: a token and when it lapses (a crashed worker's claim lapses; another worker takes over). */
  lease_token: string | null;
  lease_expires_at_ms: number | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at_ms: number | null;
}

/** One delivery attempt of an outbox row. */
export interface AlertAttemptsTable {
  id: Generated<number>;
  outbox_id: number;
  /** 1, 2, …: unique per outbox row. */
  attempt: number;
  started_at_ms: number;
  duration_ms: number;
  /** The HTTP status, or null when no response came (refused target, network error, timeout). */
  status_code: number | null;
  /** 1 for a 2xx, else 0. */
  ok: number;
  error: string | null;
  /** The worker that made the attempt. */
  worker: string;
}

/** Sign-In with Ethereum nonces the service issued: single use (deleted when a sign-in names one), expiring. */
export interface SiweNoncesTable {
  /** Letters and digits from `crypto.randomBytes`. */
  nonce: string;
  created_at: number;
  expires_at: number;
}

/** The dapp's server-side sessions (migration 004). Deleting a row ends the session for every copy of its cookie. */
export interface SessionsTable {
  /** SHA-256 (hex) of the cookie's random id: the id itself is never stored. */
  id_sha256: string;
  /** The signed-in wallet, lower case. */
  address: string;
  /** The chain id of the signed message. */
  chain_id: number;
  created_at: number;
  expires_at: number;
}

export type Pool = Selectable<PoolsTable>;
export type NewPool = Insertable<PoolsTable>;
export type PoolUpdate = Updateable<PoolsTable>;
export type PoolDaily = Selectable<PoolDailyTable>;
export type AttestationRow = Selectable<AttestationsTable>;
export type NewAttestationRow = Insertable<AttestationsTable>;
export type Campaign = Selectable<CampaignsTable>;
export type DexVolume = Selectable<DexVolumesTable>;
export type IngestRun = Selectable<IngestRunsTable>;
export type Lease = Selectable<LeasesTable>;
export type ActivityEvent = Selectable<ActivityEventsTable>;
export type NewActivityEvent = Insertable<ActivityEventsTable>;
export type PoolVolumeDay = Selectable<PoolVolumeDailyTable>;
export type PoolVolumeHour = Selectable<PoolVolumeHourlyTable>;
export type LogCursor = Selectable<LogCursorsTable>;
export type TokenPrice = Selectable<TokenPricesTable>;
export type LiquidityRequest = Selectable<LiquidityRequestsTable>;
export type ApiKey = Selectable<ApiKeysTable>;
export type AlertSubscription = Selectable<AlertSubscriptionsTable>;
export type AlertOutboxRow = Selectable<AlertOutboxTable>;
export type AlertAttempt = Selectable<AlertAttemptsTable>;
/** A column the database fills (an auto-increment id): optional on insert. */
export type Generated<T> = ColumnType<T, T | undefined, never>;

/** The latest walk-forward evaluation of one model version (`evaluation_json` is a `ModelEvaluation`). */
export interface ModelEvaluationsTable {
  model: string;
  /** Unix seconds. */
  computed_at: number;
  evaluation_json: string;
  /** Every scored claim of the evaluation (JSON array by pool, asOf, horizon); null before migration 012's first refresh. */
  claims_json: string | null;
}
export type ModelEvaluationRow = Selectable<ModelEvaluationsTable>;
