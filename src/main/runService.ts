import { createServer as createNetServer } from "node:net";
import { isAbsolute, relative } from "node:path";
import type { FastifyInstance } from "fastify";
import { type Address } from "viem";
import { startAlertWorker } from "../alerts/startAlertWorker";
import type { ServiceConfig } from "../config/loadConfig";
import { ConfigError } from "../errors/config";
import { LeaseLostError } from "../errors/lease";
import { StartupAbortedError } from "../errors/startup";
import { formatPoolId } from "@attestation-registry/sdk";
import { errorLine } from "@attestation-registry/sdk/errors";
import type { IngestSource } from "../ingest/source";
import { createMetrics, type ServiceMetrics } from "../metrics/serviceMetrics";
import { startProbeServer } from "../service/probeServer";
import { closeServer, startServer } from "../service/server";
import { createServiceStatus, type ServiceStatus } from "../service/serviceStatus";
import { ensurePrivateDir } from "../storage/fileModes";
import { openStore, type Store } from "../storage/openStore";
import { newestAttester } from "../storage/attestations";
import { listPools } from "../storage/pools";
import { registerConfigApiKeys } from "../write/registerConfigApiKeys";
import { assertSigningKeyConfigured, loadAttesterKey, type LoadAttesterKeyReturnType } from "./attesterKey";
import { DEMO_API_KEY_FILE, loadDemoApiKey, type LoadDemoApiKeyReturnType } from "./demoApiKey";
import { createPassRunner, type PassRunner } from "../ingest/passRunner";
import { startLeadership, type Leadership } from "./leadership";

/** The running service: what `npm start` holds until a signal arrives. */
export interface RunningService {
  /** `http://host:port`. */
  url: string;
  /** The attester's address; null for an api process that does not know it yet (it finds it in the store later). */
  attester: Address | null;
  registry: { chainId: number; address: Address } | null;
  /** Demo mode: the local chains' RPC URLs. */
  chains: { chainId: number; rpcUrl: string }[];
  /** This process's status (role, instance, leader, last pass, draining), as the probes report it; `start.ts` sets
   * `draining` at SIGTERM. */
  status: ServiceStatus;
  /**
   * Drains the server (no new connection; requests in flight finish within `SHUTDOWN_GRACE_S`) while it stops the pass
   * in progress (it commits nothing more), gives the lease up, and stops the alert worker; then the source (feeds,
   * chains) and the store.
   */
  stop(): Promise<void>;
}

export type RunServiceParameters = {
  config: ServiceConfig;
  /** One readable progress line. */
  log: (line: string) => void;
  /** Aborts startup between steps (Ctrl-C while the demo is being built): everything started so far is stopped. */
  signal?: AbortSignal;
};

/**
 * The main job, by `SERVICE_ROLE` (docs/operations.md#run-it-on-several-machines). `api`: the store and the HTTP app
 * only (no key, no source, no pass, no alert delivery). `worker` and `all`: the attester key, the store, the source
 * (the demo when nothing is configured: local chains with simulated history; else POOLS_FILE and RPC_URL_<chainId>),
 * the election of the ingestion leader (`startLeadership`); the HTTP server, listening before any pass (`/readyz`
 * answers 503 "starting" until the startup passes end); while this process leads, the source's history ingested without
 * issuing and one pass that issues attestations; the alert delivery worker (polls the outbox every second and after
 * every pass), then a pass every `INGEST_INTERVAL_S` while leading, each fenced by the lease. Before anything is
 * written, the start-up checks (docs/operations.md#start-up-checks): the port is free (every role: the server binds it
 * only once the store is open); a signing process of the configured mode has a key, and each `RPC_URL_<id>` answers
 * chain `<id>`.
 *
 * @param {@link RunServiceParameters}
 * @returns the {@link RunningService}; call `stop()` to shut everything down.
 * @throws {@link StartupAbortedError} when `signal` aborts startup (the demo may wrap it; check `signal.aborted`).
 */
export async function runService({ config, log, signal }: RunServiceParameters): Promise<RunningService> {
  const checkpoint = () => {
    if (signal?.aborted) throw new StartupAbortedError();
  };
  const cleanups = createCleanups(log);
  // Not ready until the startup passes end (a worker or `all` process); an api process has none.
  const status = createServiceStatus({
    role: config.role,
    instance: config.instanceId,
    starting: config.role !== "api",
  });
  const metrics = createMetrics({ role: config.role });
  log(`role ${config.role}, instance ${config.instanceId}`);
  try {
    await assertPortFree(config);
    if (config.role === "api") return await runApi({ config, log, status, metrics, cleanups });
    await checkBeforeWriting(config, log);
    const key = loadKey(config, log);
    const store = await openServiceStore(config, log);
    cleanups.push(() => store.close());
    const demoKey = await registerApiKeys(config, store, log);
    const source = await openSource({ config, key, store, log, signal });
    cleanups.push(() => source.stop());

    const passes = createPassRunner({ config, key, store, source, log, checkpoint, metrics, status });
    const leadership = await startLeadership({
      db: store.db,
      holder: config.instanceId,
      intervalMs: config.ingestIntervalS * 1000,
      // SQLite: one process owns the store, so a lease a stopped process left is taken at once.
      steal: store.dialect === "sqlite",
      status,
      metrics,
      log,
      onError: (error) => log(`ingestion: ${errorLine(error)}`),
    });
    cleanups.push(() => leadership.stop());

    checkpoint();
    // Bound before the first pass: /livez answers, /readyz says "starting" until the startup passes end.
    const { app, url, closeApp } = await serve({ config, store, source, key, status, metrics, cleanups, log });
    const leading = await startupPasses({ leadership, passes, source, signal, log });
    status.starting = false;
    if (config.role !== "worker") app.responseCache.invalidate();
    checkpoint();
    if (demoKey !== null) await logDemoRequest({ url, file: demoKey.file, store, log });

    const alerts = startAlertWorker({
      db: store.db,
      ...config.alerts,
      onOutcome: (outcome) => {
        if (outcome.result === "delivered" || outcome.result === "retry" || outcome.result === "failed") {
          metrics.alertDeliveries.inc({ result: outcome.result });
        }
        if (outcome.result === "failed") log(`alert ${outcome.webhookId} failed for good; its subscription is paused`);
      },
      onError: (error) => log(`alert delivery: ${errorLine(error)}`),
    });
    cleanups.push(() => alerts.stop());
    log(`alert delivery worker started (retry schedule ${config.alerts.retryScheduleS.join(",")} s)`);

    leadership.runPasses({
      pass: async (fence) => {
        await passes.live("ingestion pass", fence);
        if (config.role !== "worker") app.responseCache.invalidate();
        alerts.wake();
      },
      firstDelayMs: leading ? config.ingestIntervalS * 1000 : 0,
    });
    // First at shutdown: the pass in progress stops before the server drains.
    cleanups.push(() => leadership.stop());
    if (leading) log(`next ingestion pass in ${config.ingestIntervalS} s`);

    return {
      url,
      attester: key.address,
      registry: source.registry,
      chains: [...source.localChains],
      status,
      // The server drains first (its failure is reported where cleanups await it), the rest stops meanwhile.
      stop: async () => {
        void closeApp().catch(() => undefined);
        await cleanups.run();
      },
    };
  } catch (error) {
    await cleanups.run();
    throw error;
  }
}

/**
 * While this process leads: the source's history (ingest only), then one pass that issues, both under the lease's
 * fence and the startup signal. A lease lost meanwhile is logged (the process stands by); other errors end startup.
 *
 * @returns whether this process still leads.
 */
async function startupPasses(parameters: {
  leadership: Leadership;
  passes: PassRunner;
  source: IngestSource;
  signal: AbortSignal | undefined;
  log: (line: string) => void;
}): Promise<boolean> {
  const { leadership, passes, source, signal, log } = parameters;
  const lease = leadership.fence();
  if (lease === null) return false;
  const fence = { ...lease, signal: signal ? AbortSignal.any([lease.signal!, signal]) : lease.signal };
  try {
    await source.replayHistory?.((moment) => passes.history(moment, fence));
    await passes.live("ingestion pass (issuing)", fence);
  } catch (error) {
    if (!(error instanceof LeaseLostError)) throw error;
    log(`startup passes stopped: ${error.shortMessage}`);
  }
  return leadership.fence() !== null;
}

/**
 * Listens on HOST:PORT: a worker serves only the probes and /metrics (docs/operations.md#run-it-on-several-machines),
 * `all` everything. Logs the URLs; the server's drain is pushed on `cleanups` and returned as `closeApp`.
 */
async function serve(parameters: {
  config: ServiceConfig;
  store: Store;
  source: IngestSource;
  key: LoadAttesterKeyReturnType;
  status: ServiceStatus;
  metrics: ServiceMetrics;
  cleanups: ReturnType<typeof createCleanups>;
  log: (line: string) => void;
}): Promise<{ app: FastifyInstance; url: string; closeApp: () => Promise<void> }> {
  const { config, store, source, key, status, metrics, cleanups, log } = parameters;
  const attester = { address: key.address, registry: source.registry };
  const { app, url } =
    config.role === "worker"
      ? await startProbeServer({ config, store, status, metrics })
      : await startServer({ store, config, attester, status, metrics });
  const closeApp = once(() => closeServer(app, config.shutdownGraceMs));
  cleanups.push(closeApp);
  log(
    config.role === "worker"
      ? `serving the probes at ${url}/livez and ${url}/readyz, metrics at ${url}/metrics (worker: no API)`
      : `serving ${url}/api/v1 (OpenAPI: ${url}/api/v1/openapi.json), MCP at ${url}/mcp, the dapp at ${url}/app/`,
  );
  return { app, url, closeApp };
}

/**
 * `SERVICE_ROLE=api`: the store and the HTTP app, nothing else. The attester it vouches for is `ATTESTER_ADDRESS`, or
 * the signer of the newest attestation in the store: an api process never loads a key.
 */
async function runApi(parameters: {
  config: ServiceConfig;
  log: (line: string) => void;
  status: ServiceStatus;
  metrics: ServiceMetrics;
  cleanups: ReturnType<typeof createCleanups>;
}): Promise<RunningService> {
  const { config, log, status, metrics, cleanups } = parameters;
  const store = await openServiceStore(config, log);
  cleanups.push(() => store.close());
  await registerApiKeys(config, store, log);
  const address = config.attesterAddress ?? (await newestAttester(store.db));
  const attester = {
    address,
    registry: config.registry,
    lookup: () => newestAttester(store.db),
  };
  const { app, url } = await startServer({ store, config, attester, status, metrics });
  const closeApp = once(() => closeServer(app, config.shutdownGraceMs));
  cleanups.push(closeApp);
  log(
    address === null
      ? "attester not known yet (no ATTESTER_ADDRESS, no attestation in the store): /readyz answers 503 " +
          '"attester unknown" until a worker issues; this process then serves it'
      : `attester ${address} (${config.attesterAddress ? "ATTESTER_ADDRESS" : "the newest attestation in the store"})`,
  );
  log(`serving ${url}/api/v1 (OpenAPI: ${url}/api/v1/openapi.json), MCP at ${url}/mcp, the dapp at ${url}/app/`);
  const stop = async () => {
    void closeApp().catch(() => undefined);
    await cleanups.run();
  };
  return { url, attester: address, registry: config.registry, chains: [], status, stop };
}

/**
 * Start-up checks of a process that signs, before it writes anything (docs/operations.md#start-up-checks):
 * the configured mode has a key that is not a generated dev key, and each `RPC_URL_<id>` answers chain `<id>`.
 */
async function checkBeforeWriting(config: ServiceConfig, log: (line: string) => void): Promise<void> {
  assertSigningKeyConfigured(config);
  if (config.mode !== "configured") return;
  const { assertChainIds } = await import("./configuredSource");
  await assertChainIds({ rpcUrls: config.rpcUrls });
  log(`chain ids checked: ${Object.keys(config.rpcUrls).join(", ")} each answer their own eth_chainId`);
}

/**
 * The HTTP port is checked before the store is opened (docs/operations.md#start-up-checks): a listener is bound to
 * HOST:PORT and closed again, so a start whose port is taken writes nothing (the server itself needs the open store, so
 * it binds later, still before the first pass). PORT=0 (any free port) needs no check.
 *
 * @throws {@link ConfigError} naming `PORT` and the address when it is in use or may not be bound.
 */
async function assertPortFree(config: Pick<ServiceConfig, "host" | "port">): Promise<void> {
  if (config.port === 0) return;
  const server = createNetServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen({ host: config.host, port: config.port, exclusive: true }, resolve);
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const address = `${config.host.includes(":") ? `[${config.host}]` : config.host}:${config.port}`;
    throw new ConfigError({
      variable: "PORT",
      message:
        code === "EADDRINUSE"
          ? `${address} is already in use (EADDRINUSE): stop what listens there, or set another PORT`
          : `cannot listen on ${address} (${code ?? errorLine(error)}): check HOST and PORT`,
    });
  }
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * The attester key (never logged; only its address and where it came from). First DATA_DIR, 0700
 * (docs/security.md#files): created so, or tightened from a looser mode when this user owns it; a shared or foreign
 * folder is left as is, with a warning.
 */
function loadKey(config: ServiceConfig, log: (line: string) => void): LoadAttesterKeyReturnType {
  const dir = ensurePrivateDir(config.dataDir);
  if (dir.action === "tightened") log(`DATA_DIR ${config.dataDir} was mode ${dir.was}; now 0700`);
  if (dir.action === "left") {
    log(`warning: DATA_DIR ${config.dataDir} is mode ${dir.was} and shared or not ours; left as is (want 0700)`);
  }
  const key = loadAttesterKey({ source: config.attesterKey, signer: config.attesterSigner, mode: config.mode });
  log(`attester ${key.address} (${key.origin}${key.file ? `: ${key.file}` : ""})`);
  return key;
}

/**
 * The API keys of the keyed writes: `API_KEYS`, plus in demo mode (not on an api process) the demo key
 * (`DATA_DIR/api.key`, created once). The store keeps their SHA-256 only. Only adds: a key revoked with
 * `attest keys revoke` stays revoked. Never logs a key.
 */
async function registerApiKeys(
  config: ServiceConfig,
  store: Store,
  log: (line: string) => void,
): Promise<LoadDemoApiKeyReturnType | null> {
  const demo = config.mode === "demo" && config.role !== "api" ? loadDemoApiKey({ dataDir: config.dataDir }) : null;
  const keys = config.apiKeys.map((key, i) => ({ key, label: `API_KEYS #${i + 1}` }));
  if (demo !== null) keys.push({ key: demo.key, label: `demo key (DATA_DIR/${DEMO_API_KEY_FILE})` });
  const now = () => Math.floor(Date.now() / 1000);
  const { revoked } = await registerConfigApiKeys({ db: store.db, now }, { keys });
  const from = [`${config.apiKeys.length} from API_KEYS`];
  if (demo !== null) from.push(`demo key ${demo.origin}: ${demo.file}`);
  const stays = `; ${revoked} of them revoked in the store (attest keys revoke): they stay revoked, remove them`;
  log(`API keys: ${from.join(", ")}${revoked > 0 ? stays : ""}`);
  return demo;
}

/** One line showing a keyed write with the demo key, read from its file by the shell (the key is never printed). */
async function logDemoRequest(parameters: { url: string; file: string; store: Store; log: (line: string) => void }) {
  const pool = (await listPools(parameters.store.db))[0];
  if (pool === undefined) return;
  const near = relative(process.cwd(), parameters.file);
  const path = near.startsWith("..") || isAbsolute(near) ? parameters.file : near;
  const quoted = /^[\w./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
  const body = {
    chainId: pool.chainId,
    pool: formatPoolId({ chainId: pool.chainId, address: pool.address }),
    amountUsd: 250000,
    horizonDays: 30,
  };
  parameters.log(
    `try a keyed write: curl -s -X POST ${parameters.url}/api/v1/liquidity-requests -H "Authorization: Bearer $(cat ${quoted})" -H "Content-Type: application/json" -d '${JSON.stringify(body)}'`,
  );
}

/** The store: PostgreSQL when DATABASE_URL is set, else SQLite in DATA_DIR. */
async function openServiceStore(config: ServiceConfig, log: (line: string) => void): Promise<Store> {
  const store = await openStore({
    ...config.database,
    migrate: config.migrateOnStart,
    // The passes' connections are reused from one pass to the next (an interval up to 15 min; at most 5 are kept).
    idleTimeoutMs: Math.min(config.ingestIntervalS, 900) * 1000 + 60_000,
    onConnectionError: (error) => log(`store: a connection broke (${errorLine(error)}); the next query reconnects`),
  });
  const migrated = store.migrated?.length ? ` (migrated: ${store.migrated.join(", ")})` : "";
  log(
    `store: ${"file" in config.database ? `SQLite ${config.database.file}` : "PostgreSQL (DATABASE_URL)"}${migrated}`,
  );
  return store;
}

/** The configured deployment or the demo; each is loaded only when used (the demo brings the local chains). */
async function openSource({
  config,
  key,
  store,
  log,
  signal,
}: {
  config: ServiceConfig;
  key: LoadAttesterKeyReturnType;
  store: Store;
  log: (line: string) => void;
  signal?: AbortSignal;
}): Promise<IngestSource> {
  if (config.mode === "configured") {
    const { openConfiguredSource } = await import("./configuredSource");
    return openConfiguredSource({ config, log });
  }
  const { startDemoSource } = await import("../demo/demoSource");
  // The demo's key is always in the process: loadAttesterKey refuses a signer URL in demo mode.
  return startDemoSource({ config, attesterPrivateKey: key.privateKey!, store, log, signal });
}

/** `run` started once: every call returns its one promise. */
function once(run: () => Promise<void>): () => Promise<void> {
  let started: Promise<void> | null = null;
  return () => (started ??= run());
}

/** What to stop on shutdown, stopped in reverse order; a failing step is logged and the next one still runs. */
function createCleanups(log: (line: string) => void): {
  push(cleanup: () => Promise<void>): void;
  run(): Promise<void>;
} {
  const cleanups: (() => Promise<void>)[] = [];
  return {
    push: (cleanup) => cleanups.push(cleanup),
    run: async () => {
      for (const cleanup of cleanups.reverse()) {
        await cleanup().catch((error: Error) => log(`shutdown: ${errorLine(error)}`));
      }
      cleanups.length = 0;
    },
  };
}
