import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { envSchema } from "env-schema";
import { getAddress, type Address, type Hex } from "viem";
import { ConfigError } from "../errors/config";
import { EnvSchema, type Env } from "./envSchema";
import { parseApiKeys } from "./parseApiKeys";

/** `SERVICE_ROLE` (docs/operations.md#run-it-on-several-machines). */
export type ServiceRole = "all" | "api" | "worker";

/** `TRUST_PROXY` as Fastify's `trustProxy` takes it: false (no proxy), a hop count, or proxy addresses/CIDRs. */
export type TrustProxyConfig = false | number | string[];

/** Per-client rate limits; `false` switches them off (benchmarks). */
export type RateLimitConfig = false | { max: number; verifyMax: number; windowMs: number };

/** Connection limits (docs/security.md#connections-and-slow-clients). */
export interface ConnectionLimitsConfig {
  /** `REQUEST_TIMEOUT_S` in ms: a request's headers and body must arrive within it, else 408 and the socket closes. */
  requestTimeoutMs: number;
  /** `MAX_CONNECTIONS_PER_CLIENT`: open connections per client address; `false` (0) switches the cap off. */
  maxPerClient: number | false;
}

/** The typed configuration of the service. */
export interface ServiceConfig {
  port: number;
  host: string;
  /** Absolute. */
  dataDir: string;
  /** Where the store lives: PostgreSQL URL, or a SQLite file (DATA_DIR/service.sqlite). */
  database: { databaseUrl: string } | { file: string };
  /** `RPC_URL_<chainId>` values. */
  rpcUrls: Record<number, string>;
  poolsFile?: string;
  feeds: { defillamaYieldsUrl?: string; defillamaApiUrl?: string; defillamaCoinsUrl?: string; merklApiUrl?: string };
  /** Where the attester key comes from. `dataDir` means the dev key `DATA_DIR/attester.key`, created once. */
  attesterKey: { privateKey: Hex } | { file: string } | { dataDir: string };
  registry: { chainId: number; address: Address } | null;
  ingestIntervalS: number;
  freshnessWindowS: number;
  attestationLifetimeS: number;
  rateLimit: RateLimitConfig;
  /** The limits on connections that hold against slow and numerous clients (docs/security.md). */
  connections: ConnectionLimitsConfig;
  cacheTtlMs: number;
  /**
   * `PUBLIC_ORIGIN`: the service's own origin (a SIWE message's domain and URI, the allowed `Origin` of `/mcp` and the
   * dapp's POSTs). `null` = `http://<HOST>:<PORT>` of the listening socket (see the service's `publicOrigin()`).
   */
  publicOrigin: string | null;
  /** `API_KEYS`: the keys of the keyed writes (`POST /api/v1/liquidity-requests`). Secret: never log them. */
  apiKeys: string[];
  /** `demo` when neither POOLS_FILE nor any RPC_URL_<chainId> is set. */
  mode: "demo" | "configured";
  demo: { days: number; seed: number };
  logLevel: Env["LOG_LEVEL"];
  /** Sign-In with Ethereum and the dapp's sessions (docs/sign-in.md). */
  signIn: {
    /** `SESSION_TTL_S`: a session's lifetime, capped by the signed message's Expiration Time. */
    sessionTtlS: number;
    /** `SIWE_CHAIN_IDS`: the chain ids a message may name, ascending. */
    chainIds: number[];
    /** `RATE_LIMIT_SIGN_IN_MAX` (at most `RATE_LIMIT_MAX`): nonce and verify requests per window per client. */
    rateLimitMax: number;
    /**
     * `MAX_KEYS_PER_WALLET`: the API keys a wallet may hold at once, revoked ones not counted
     * (docs/security.md#keys-subscriptions-and-alerts).
     */
    maxKeysPerWallet: number;
  };
  /** `SERVICE_ROLE`: what this process does (docs/operations.md#run-it-on-several-machines). */
  role: ServiceRole;
  /** `INSTANCE_ID`: this process's name in runs, `ingest.pass` events, logs and `/readyz`. */
  instanceId: string;
  /** `TRUST_PROXY`: where the client address comes from (docs/operations.md#behind-a-proxy). */
  trustProxy: TrustProxyConfig;
  /** `PROBE_RATE_LIMIT` and `METRICS_TOKEN`: what guards `/readyz` and `/metrics`. */
  probes: { perClientPerSecond: number; metricsToken: string | null };
  /** `SHUTDOWN_GRACE_S` in ms: on SIGTERM, in-flight requests may take this long to finish. */
  shutdownGraceMs: number;
  /** `MIGRATE_ON_START`: apply pending migrations at start (else a schema behind is a start error). */
  migrateOnStart: boolean;
  /** `ATTESTER_SIGNER_URL` + `ATTESTER_ADDRESS`: sign through a JSON-RPC signer instead of a key in the process. */
  attesterSigner: { url: string; address: Address } | null;
  /** `ATTESTER_ADDRESS`: the attester this process vouches for (with a signer, or alone on `SERVICE_ROLE=api`). */
  attesterAddress: Address | null;
  /** `PRICE_MIN_CONFIDENCE`: coin prices with a lower DefiLlama `confidence` are not used. */
  priceMinConfidence: number;
  /** `FEED_MAX_BYTES`: a feed body longer than this is refused while it streams. */
  feedMaxBytes: number;
  /** `LOG_CONFIRMATIONS`: where a node has no `safe` block, log reads stop this many blocks behind the head. */
  logConfirmations: number;
  /** `LOG_RANGE_BLOCKS`: the span of one `eth_getLogs` request, narrowed within a pass on a provider's range error. */
  logRangeBlocks: number;
  /** `RETENTION_DAYS`: what has served its purpose is pruned after this many days (docs/operations.md). */
  retentionDays: number;
  alerts: {
    /** `ALERTS_RETRY_SCHEDULE_S`: the delays between delivery attempts, in seconds (1–20 of them, each ≤ 7 days). */
    retryScheduleS: number[];
    /** `ALERTS_ALLOW_PRIVATE_TARGETS=1`: targets may be private addresses and plain http (demo and tests only). */
    allowPrivateTargets: boolean;
  };
}

export type LoadConfigParameters = { env: NodeJS.ProcessEnv; cwd?: string };
export type LoadConfigReturnType = ServiceConfig;
export type LoadConfigErrorType = ConfigError;

/**
 * Reads the service configuration from the environment. Empty values count as unset.
 *
 * @param {@link LoadConfigParameters}
 * @returns the typed {@link ServiceConfig}.
 * @throws {@link ConfigError} naming the variable and the rule, in one line.
 * @example
 * import { loadConfig } from "./src/config/loadConfig";
 * const config = loadConfig({ env: process.env });
 */
export function loadConfig({ env, cwd = process.cwd() }: LoadConfigParameters): ServiceConfig {
  const known = new Set(Object.keys(EnvSchema.properties));
  const data: Record<string, string> = {};
  const rpcUrls: Record<number, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.trim() === "") continue;
    if (known.has(name)) data[name] = value.trim();
    const rpc = parseRpcUrl(name, value);
    if (rpc !== null) rpcUrls[rpc.chainId] = rpc.url;
  }

  // Ajv would coerce "1e3", "0x50", " 12" or "1.0" to integers; a number here is plain decimal digits.
  for (const [name, value] of Object.entries(data)) {
    const schema = (EnvSchema.properties as Record<string, { type?: string }>)[name];
    if (schema?.type === "integer" && !/^(0|-?[1-9][0-9]*)$/.test(value)) {
      throw new ConfigError({ variable: name, message: `must be integer (got "${value}")` });
    }
  }

  let parsed: Env;
  try {
    parsed = envSchema<Env>({ schema: structuredClone(EnvSchema), data, env: false });
  } catch (error) {
    throw toConfigError(error, data);
  }

  checkCombinations(parsed);
  const apiKeys = parseApiKeys({ value: parsed.API_KEYS });
  const hasRpc = Object.keys(rpcUrls).length > 0;
  if (hasRpc && parsed.POOLS_FILE === undefined) {
    throw new ConfigError({
      variable: "POOLS_FILE",
      message: "required when RPC_URL_<chainId> is set (which pools to track)",
    });
  }
  if (parsed.POOLS_FILE !== undefined && !hasRpc) {
    throw new ConfigError({ variable: "RPC_URL_<chainId>", message: "POOLS_FILE is set but no RPC_URL_<chainId> is" });
  }

  const dataDir = resolve(cwd, parsed.DATA_DIR);
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    dataDir,
    database:
      parsed.DATABASE_URL !== undefined
        ? { databaseUrl: parsed.DATABASE_URL }
        : { file: resolve(dataDir, "service.sqlite") },
    rpcUrls,
    poolsFile: parsed.POOLS_FILE === undefined ? undefined : resolve(cwd, parsed.POOLS_FILE),
    feeds: {
      defillamaYieldsUrl: parsed.DEFILLAMA_YIELDS_URL,
      defillamaApiUrl: parsed.DEFILLAMA_API_URL,
      defillamaCoinsUrl: parsed.DEFILLAMA_COINS_URL,
      merklApiUrl: parsed.MERKL_API_URL,
    },
    attesterKey:
      parsed.ATTESTER_PRIVATE_KEY !== undefined
        ? { privateKey: parsed.ATTESTER_PRIVATE_KEY.toLowerCase() as Hex }
        : parsed.ATTESTER_KEY_FILE !== undefined
          ? { file: resolve(cwd, parsed.ATTESTER_KEY_FILE) }
          : { dataDir },
    registry:
      parsed.REGISTRY_ADDRESS !== undefined && parsed.REGISTRY_CHAIN_ID !== undefined
        ? { chainId: parsed.REGISTRY_CHAIN_ID, address: getAddress(parsed.REGISTRY_ADDRESS.toLowerCase()) }
        : null,
    ingestIntervalS: parsed.INGEST_INTERVAL_S,
    freshnessWindowS: parsed.FRESHNESS_WINDOW_S,
    attestationLifetimeS: parsed.ATTESTATION_LIFETIME_S,
    rateLimit:
      parsed.RATE_LIMIT_MAX === 0
        ? false
        : {
            max: parsed.RATE_LIMIT_MAX,
            verifyMax: Math.min(parsed.RATE_LIMIT_VERIFY_MAX, parsed.RATE_LIMIT_MAX),
            windowMs: parsed.RATE_LIMIT_WINDOW_S * 1000,
          },
    connections: {
      requestTimeoutMs: parsed.REQUEST_TIMEOUT_S * 1000,
      maxPerClient: parsed.MAX_CONNECTIONS_PER_CLIENT === 0 ? false : parsed.MAX_CONNECTIONS_PER_CLIENT,
    },
    cacheTtlMs: parsed.API_CACHE_TTL_MS,
    publicOrigin: parsed.PUBLIC_ORIGIN === undefined ? null : new URL(parsed.PUBLIC_ORIGIN).origin,
    apiKeys,
    mode: hasRpc ? "configured" : "demo",
    demo: { days: parsed.DEMO_DAYS, seed: parsed.DEMO_SEED },
    logLevel: parsed.LOG_LEVEL,
    signIn: {
      sessionTtlS: parsed.SESSION_TTL_S,
      chainIds: siweChainIds(parsed.SIWE_CHAIN_IDS, rpcUrls),
      rateLimitMax: Math.min(parsed.RATE_LIMIT_SIGN_IN_MAX, parsed.RATE_LIMIT_MAX || Infinity),
      maxKeysPerWallet: parsed.MAX_KEYS_PER_WALLET,
    },
    role: parsed.SERVICE_ROLE,
    instanceId: parsed.INSTANCE_ID ?? defaultInstanceId(),
    trustProxy: parseTrustProxy(parsed.TRUST_PROXY),
    probes: { perClientPerSecond: parsed.PROBE_RATE_LIMIT, metricsToken: parsed.METRICS_TOKEN ?? null },
    shutdownGraceMs: parsed.SHUTDOWN_GRACE_S * 1000,
    migrateOnStart: parsed.MIGRATE_ON_START === "true" || parsed.MIGRATE_ON_START === "1",
    attesterAddress: parsed.ATTESTER_ADDRESS === undefined ? null : getAddress(parsed.ATTESTER_ADDRESS.toLowerCase()),
    attesterSigner:
      parsed.ATTESTER_SIGNER_URL !== undefined && parsed.ATTESTER_ADDRESS !== undefined
        ? { url: parsed.ATTESTER_SIGNER_URL, address: getAddress(parsed.ATTESTER_ADDRESS.toLowerCase()) }
        : null,
    logConfirmations: parsed.LOG_CONFIRMATIONS,
    logRangeBlocks: parsed.LOG_RANGE_BLOCKS,
    priceMinConfidence: parsed.PRICE_MIN_CONFIDENCE,
    feedMaxBytes: parsed.FEED_MAX_BYTES,
    retentionDays: parsed.RETENTION_DAYS,
    alerts: {
      retryScheduleS: parseRetrySchedule(parsed.ALERTS_RETRY_SCHEDULE_S),
      allowPrivateTargets: parsed.ALERTS_ALLOW_PRIVATE_TARGETS === "1",
    },
  };
}

/**
 * `RPC_URL_<chainId>`: the suffix a decimal chain id, the value an http(s) URL. Chains are read through viem's http
 * transport only (src/chain/chainClients.ts): a WebSocket URL would fail at every read, so it is refused here
 * (docs/operations.md#start-up-checks). Returns null for any other variable.
 */
function parseRpcUrl(name: string, value: string): { chainId: number; url: string } | null {
  const rpc = /^RPC_URL_(.*)$/.exec(name);
  if (!rpc) return null;
  if (!/^[1-9][0-9]{0,15}$/.test(rpc[1]) || !Number.isSafeInteger(Number(rpc[1]))) {
    throw new ConfigError({ variable: name, message: "the suffix must be a decimal chain id, e.g. RPC_URL_1" });
  }
  const url = value.trim();
  if (/^wss?:\/\//i.test(url)) {
    throw new ConfigError({
      variable: name,
      message: "must be an http(s) URL; WebSocket (ws, wss) is not supported: give the provider's https endpoint",
    });
  }
  if (!/^https?:\/\/\S+$/.test(url)) {
    throw new ConfigError({ variable: name, message: `must be an http(s) URL (got "${value}")` });
  }
  return { chainId: Number(rpc[1]), url };
}

/** `INSTANCE_ID`'s default: the host name, the pid and a random suffix (two replicas on one host differ). */
function defaultInstanceId(): string {
  const host = hostname()
    .replace(/[^A-Za-z0-9._-]/g, "-")
    .slice(0, 40);
  return `${host}-${process.pid}-${randomBytes(3).toString("hex")}`;
}

/** The rules between variables: what goes together, what excludes what. Throws {@link ConfigError} naming one. */
function checkCombinations(parsed: Env): void {
  if (parsed.ATTESTER_PRIVATE_KEY !== undefined && parsed.ATTESTER_KEY_FILE !== undefined) {
    throw new ConfigError({
      variable: "ATTESTER_KEY_FILE",
      message: "set ATTESTER_PRIVATE_KEY or ATTESTER_KEY_FILE, not both",
    });
  }
  if ((parsed.REGISTRY_ADDRESS === undefined) !== (parsed.REGISTRY_CHAIN_ID === undefined)) {
    const missing = parsed.REGISTRY_ADDRESS === undefined ? "REGISTRY_ADDRESS" : "REGISTRY_CHAIN_ID";
    throw new ConfigError({
      variable: missing,
      message: "REGISTRY_ADDRESS and REGISTRY_CHAIN_ID go together; set both",
    });
  }
  // An api process never signs: ATTESTER_ADDRESS alone names the attester it vouches for.
  const apiAddressOnly = parsed.SERVICE_ROLE === "api" && parsed.ATTESTER_SIGNER_URL === undefined;
  if (!apiAddressOnly && (parsed.ATTESTER_SIGNER_URL === undefined) !== (parsed.ATTESTER_ADDRESS === undefined)) {
    const missing = parsed.ATTESTER_SIGNER_URL === undefined ? "ATTESTER_SIGNER_URL" : "ATTESTER_ADDRESS";
    throw new ConfigError({
      variable: missing,
      message:
        "ATTESTER_SIGNER_URL and ATTESTER_ADDRESS go together; set both (ATTESTER_ADDRESS alone: SERVICE_ROLE=api)",
    });
  }
  if (
    parsed.ATTESTER_SIGNER_URL !== undefined &&
    (parsed.ATTESTER_PRIVATE_KEY !== undefined || parsed.ATTESTER_KEY_FILE !== undefined)
  ) {
    throw new ConfigError({
      variable: "ATTESTER_SIGNER_URL",
      message: "set a signer (ATTESTER_SIGNER_URL) or a key (ATTESTER_PRIVATE_KEY / ATTESTER_KEY_FILE), not both",
    });
  }
  if (parsed.SERVICE_ROLE !== "all" && parsed.DATABASE_URL === undefined) {
    throw new ConfigError({
      variable: "DATABASE_URL",
      message: `required with SERVICE_ROLE=${parsed.SERVICE_ROLE} (api and worker processes share one PostgreSQL database)`,
    });
  }
}

/** `TRUST_PROXY`: unset = false; digits = a hop count; else the proxies' addresses/CIDRs, each checked. */
function parseTrustProxy(value: string | undefined): TrustProxyConfig {
  if (value === undefined) return false;
  if (/^[0-9]+$/.test(value)) return Number(value);
  const entries = value.split(",").map((entry) => entry.trim());
  for (const entry of entries) {
    const [address, bits] = entry.split("/");
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    if (family === 0 || (bits !== undefined && !(Number(bits) <= max))) {
      throw new ConfigError({
        variable: "TRUST_PROXY",
        message: `"${entry}" is not an IP address or CIDR (give a hop count or proxy addresses, comma-separated)`,
      });
    }
  }
  return entries;
}

/** `ALERTS_RETRY_SCHEDULE_S` as numbers: 1 to 20 delays, each above 0 and at most 7 days (604,800 s). */
function parseRetrySchedule(value: string): number[] {
  const delays = value.split(",").map((part) => Number(part.trim()));
  if (delays.length > 20 || delays.some((delay) => !(delay > 0 && delay <= 604_800))) {
    throw new ConfigError({
      variable: "ALERTS_RETRY_SCHEDULE_S",
      message: `must be 1 to 20 delays in seconds, each above 0 and at most 604800, comma-separated (got "${value}")`,
    });
  }
  return delays;
}

/** `SIWE_CHAIN_IDS` as numbers, or by default 1, 8453, 42161 and every chain with an `RPC_URL_<chainId>`. */
function siweChainIds(value: string | undefined, rpcUrls: Record<number, string>): number[] {
  const ids =
    value === undefined
      ? [1, 8453, 42161, ...Object.keys(rpcUrls).map(Number)]
      : value.split(",").map((id) => Number(id));
  if (ids.some((id) => !Number.isSafeInteger(id))) {
    throw new ConfigError({
      variable: "SIWE_CHAIN_IDS",
      message: `each chain id must be at most 2^53 - 1 (got "${value}")`,
    });
  }
  return [...new Set(ids)].sort((a, b) => a - b);
}

/** Turns env-schema's Ajv error into one line naming the first bad variable (never echoing a key). */
function toConfigError(error: unknown, data: Record<string, string>): ConfigError {
  const first = (error as { errors?: { instancePath?: string; message?: string; keyword?: string }[] }).errors?.[0];
  const variable = first?.instancePath?.replace(/^\//, "") || "environment";
  const secret = /KEY/.test(variable);
  const got = variable in data && !secret ? ` (got "${data[variable]}")` : "";
  const schema = (EnvSchema.properties as Record<string, { description?: string }>)[variable];
  const rule =
    first?.keyword === "pattern"
      ? `has the wrong format (expected: ${schema?.description})`
      : first?.keyword === "enum"
        ? `must be one of ${(first as { params?: { allowedValues?: string[] } }).params?.allowedValues?.join(", ")}`
        : first?.message;
  return new ConfigError({ variable, message: `${rule ?? String(error)}${got}` });
}
