import { Type, type Static } from "@sinclair/typebox";

const integer = (options: { default?: number; minimum: number; maximum?: number; description: string }) =>
  Type.Integer({ maximum: Number.MAX_SAFE_INTEGER, ...options });
/** The delays between alert delivery attempts, in seconds (docs/alerts.md#retries-order-and-the-failed-state). */
export const DEFAULT_ALERTS_RETRY_SCHEDULE_S = "5,30,120,600,1800,7200,21600";
const url = (description: string) => Type.Optional(Type.String({ pattern: "^https?://[^\\s]+$", description }));

/**
 * The environment the service reads (names and defaults: docs/service.md#configuration), as a TypeBox schema for
 * `env-schema`.
 */
export const EnvSchema = Type.Object({
  PORT: integer({ default: 8080, minimum: 0, maximum: 65535, description: "HTTP port (0 = any free port)" }),
  HOST: Type.String({ default: "127.0.0.1", minLength: 1, description: "HTTP listen address" }),
  DATA_DIR: Type.String({ default: "./data", minLength: 1, description: "SQLite file and dev key live here" }),
  DATABASE_URL: Type.Optional(
    Type.String({ pattern: "^postgres(ql)?://", description: "PostgreSQL URL; unset = SQLite in DATA_DIR" }),
  ),
  POOLS_FILE: Type.Optional(Type.String({ minLength: 1, description: "tracked pools (JSON); unset = demo" })),
  DEFILLAMA_YIELDS_URL: url("DefiLlama yields API base URL"),
  DEFILLAMA_API_URL: url("DefiLlama API base URL (dex volumes)"),
  DEFILLAMA_COINS_URL: url("DefiLlama coin prices API base URL"),
  MERKL_API_URL: url("Merkl API base URL"),
  ATTESTER_PRIVATE_KEY: Type.Optional(
    Type.String({ pattern: "^0x[0-9a-fA-F]{64}$", description: "attester key, 0x + 64 hex digits" }),
  ),
  ATTESTER_KEY_FILE: Type.Optional(Type.String({ minLength: 1, description: "file holding the attester key" })),
  REGISTRY_ADDRESS: Type.Optional(Type.String({ pattern: "^0x[0-9a-fA-F]{40}$", description: "registry address" })),
  REGISTRY_CHAIN_ID: Type.Optional(integer({ minimum: 1, description: "chain of the registry" })),
  PUBLIC_ORIGIN: Type.Optional(
    Type.String({
      pattern: "^https?://[^/\\s?#]+$",
      description: "the origin browsers and wallets see (scheme://host[:port]); unset = http://<HOST>:<PORT>",
    }),
  ),
  API_KEYS: Type.Optional(
    Type.String({ description: "keys of the keyed writes, comma-separated, each at least 32 characters" }),
  ),
  INGEST_INTERVAL_S: integer({ default: 900, minimum: 1, description: "seconds between ingestion passes" }),
  FRESHNESS_WINDOW_S: integer({ default: 3600, minimum: 1, description: "older values are stale" }),
  ATTESTATION_LIFETIME_S: integer({ default: 86400, minimum: 60, description: "expiry − issuedAt" }),
  RATE_LIMIT_MAX: integer({ default: 600, minimum: 0, description: "requests per window per client; 0 = off" }),
  RATE_LIMIT_VERIFY_MAX: integer({ default: 60, minimum: 1, description: "POST /verify per window per client" }),
  RATE_LIMIT_WINDOW_S: integer({ default: 60, minimum: 1, description: "rate limit window" }),
  PROBE_RATE_LIMIT: integer({
    default: 10,
    minimum: 0,
    description: "GET /readyz and GET /metrics, each, per second per client; 0 = off (/livez is never limited)",
  }),
  METRICS_TOKEN: Type.Optional(
    Type.String({
      minLength: 16,
      description: "when set, GET /metrics needs Authorization: Bearer <token> (at least 16 characters)",
    }),
  ),
  RATE_LIMIT_SIGN_IN_MAX: integer({
    default: 20,
    minimum: 1,
    description: "GET /auth/nonce and POST /auth/verify, each, per window per client",
  }),
  SESSION_TTL_S: integer({
    default: 86400,
    minimum: 60,
    maximum: 2_592_000,
    description: "dapp session lifetime in seconds (never beyond the signed message's Expiration Time)",
  }),
  MAX_KEYS_PER_WALLET: integer({
    default: 10,
    minimum: 1,
    maximum: 1000,
    description: "API keys a signed-in wallet may hold at once (revoked keys not counted)",
  }),
  SIWE_CHAIN_IDS: Type.Optional(
    Type.String({
      pattern: "^ *[1-9][0-9]{0,15} *(, *[1-9][0-9]{0,15} *)*$",
      description:
        "chain ids a sign-in message may name, comma-separated; unset = 1, 8453, 42161 and each RPC_URL_<id>",
    }),
  ),
  REQUEST_TIMEOUT_S: integer({
    default: 30,
    minimum: 1,
    maximum: 3600,
    description:
      "a request (headers and body) must arrive within this many seconds, else 408 and the connection closes",
  }),
  MAX_CONNECTIONS_PER_CLIENT: integer({
    default: 64,
    minimum: 0,
    maximum: 1_000_000,
    description: "open connections one client address may hold; more are closed at once; 0 = off (behind a proxy)",
  }),
  API_CACHE_TTL_MS: integer({ default: 5000, minimum: 0, description: "how long a served response is reused" }),
  DEMO_DAYS: integer({ default: 120, minimum: 1, maximum: 365, description: "simulated days of demo history" }),
  DEMO_SEED: integer({ default: 1, minimum: 0, description: "seed of the deterministic demo" }),
  ALERTS_RETRY_SCHEDULE_S: Type.String({
    default: DEFAULT_ALERTS_RETRY_SCHEDULE_S,
    pattern: "^ *[0-9]+(\\.[0-9]+)? *(, *[0-9]+(\\.[0-9]+)? *)*$",
    description: "alert retry delays in seconds between attempts, comma-separated (±10 % jitter), then failed",
  }),
  ALERTS_ALLOW_PRIVATE_TARGETS: Type.Unsafe<"0" | "1">({
    type: "string",
    enum: ["0", "1"],
    default: "0",
    description: "1 lets alert targets be private addresses and plain http (demo and tests only)",
  }),
  SERVICE_ROLE: Type.Unsafe<"all" | "api" | "worker">({
    type: "string",
    enum: ["all", "api", "worker"],
    default: "all",
    description:
      "all = one process does everything; api = serves reads and writes, never ingests, signs or delivers; worker = ingestion, issuance and alert delivery (one leader), probes and /metrics only",
  }),
  INSTANCE_ID: Type.Optional(
    Type.String({
      pattern: "^[A-Za-z0-9._:-]{1,64}$",
      description: "this process's name in runs, events, logs and /readyz; default <host>-<pid>-<random>",
    }),
  ),
  TRUST_PROXY: Type.Optional(
    Type.String({
      pattern: "^ *([0-9]{1,2}|[0-9a-fA-F:.]+(/[0-9]{1,3})?( *, *[0-9a-fA-F:.]+(/[0-9]{1,3})?)*) *$",
      description:
        "unset = no proxy; a hop count, or proxy addresses/CIDRs comma-separated: the client comes from X-Forwarded-For",
    }),
  ),
  SHUTDOWN_GRACE_S: integer({
    default: 10,
    minimum: 0,
    maximum: 3600,
    description: "on SIGTERM, how long in-flight requests may take to finish before the process exits",
  }),
  MIGRATE_ON_START: Type.Unsafe<"true" | "false" | "1" | "0">({
    type: "string",
    enum: ["true", "false", "1", "0"],
    default: "true",
    description:
      "true = apply pending migrations at start; false = refuse to start on a schema behind (npx attest migrate)",
  }),
  ATTESTER_SIGNER_URL: url("JSON-RPC signer answering personal_sign (Clef, Web3Signer, a Hardhat node)"),
  ATTESTER_ADDRESS: Type.Optional(
    Type.String({ pattern: "^0x[0-9a-fA-F]{40}$", description: "the signer's address, with ATTESTER_SIGNER_URL" }),
  ),
  PRICE_MIN_CONFIDENCE: Type.Number({
    default: 0.9,
    minimum: 0,
    maximum: 1,
    description: "a DefiLlama coin price whose confidence is below this is not used (0 to 1)",
  }),
  FEED_MAX_BYTES: integer({
    default: 67_108_864,
    minimum: 1024,
    maximum: 1_073_741_824,
    description: "largest feed response body read, in bytes (64 MiB); a longer one is refused while it streams",
  }),
  LOG_CONFIRMATIONS: integer({
    default: 12,
    minimum: 0,
    maximum: 10_000,
    description: "blocks behind the head that log reads stop at where a node does not serve the `safe` tag",
  }),
  LOG_RANGE_BLOCKS: integer({
    default: 2000,
    minimum: 1,
    maximum: 1_000_000,
    description: "blocks in one eth_getLogs request; narrowed within a pass on a provider's range or size error",
  }),
  RETENTION_DAYS: integer({
    default: 90,
    minimum: 1,
    maximum: 36500,
    description: "days kept of finished runs, settled deliveries and superseded attestations (docs/operations.md)",
  }),
  LOG_LEVEL: Type.Unsafe<"fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent">({
    type: "string",
    enum: ["fatal", "error", "warn", "info", "debug", "trace", "silent"],
    default: "warn",
    description: "log level of the HTTP server (info, debug and trace log every request)",
  }),
});
export type Env = Static<typeof EnvSchema>;
