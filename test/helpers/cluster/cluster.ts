import type { Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "../e2e/mainJob";
import { startPostgres, type TestPostgres } from "../../../testkit/postgres";
import { ClusterProcess, sleep, type Exit } from "./processes";

/**
 * The multi-process harness (docs/operations.md#run-it-on-several-machines): `npm run demo:chains` (compiled:
 * `dist/main/demoChains.js`), a throwaway PostgreSQL of its own (restartable), and any number of service processes
 * (`dist/main/start.js`) configured from the chains' `demo.env` with a role, an instance id and a port each. Tests run
 * after `npm run build`.
 */

/**
 * The variables `demo.env` sets, read the way the docs tell an operator to (`set -a; . demo.env; set +a` in `sh`), so
 * the file is checked to be valid shell as well. Only the names the file assigns are returned.
 */
export function readEnvFile(file: string): Record<string, string> {
  const names = readFileSync(file, "utf8")
    .split("\n")
    .map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
  const result = spawnSync("sh", ["-c", 'set -a; . "$1"; set +a; env -0', "sh", file], { env: {}, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`sh could not read ${file}: ${result.stderr}`);
  const env = Object.fromEntries(
    result.stdout
      .split("\0")
      .filter((entry) => entry.includes("="))
      .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
  );
  return Object.fromEntries(names.map((name) => [name, env[name] ?? ""]));
}

/** `npm run demo:chains` in a child process, with the environment it wrote. */
export interface DemoChainsProcess {
  process: ClusterProcess;
  /** Its DATA_DIR (a temporary folder, removed by `stop()`). */
  dataDir: string;
  envFile: string;
  /** The variables of `demo.env` ({@link readEnvFile}). */
  env: Record<string, string>;
  /** SIGTERM (SIGKILL after 15 s), then removes its DATA_DIR. */
  stop(): Promise<Exit>;
}

/**
 * Starts `demo:chains` with `DEMO_DAYS=days` (default 20) in a DATA_DIR of its own and waits until it has written
 * `demo.env`. 20 days: a configured process backfills the 19 completed days from the feeds, enough for the issuing
 * model's conservative prior on a new deployment (11 held 7-day windows for 0.80), so attestations are issued at once.
 */
export async function startDemoChainsProcess(
  options: { days?: number; extraEnv?: Record<string, string> } = {},
): Promise<DemoChainsProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), "demo-chains-"));
  const child = new ClusterProcess("demo:chains", "dist/main/demoChains.js", {
    DATA_DIR: dataDir,
    DEMO_DAYS: String(options.days ?? 20),
    ...options.extraEnv,
  });
  const stop = async () => {
    const exit = await child.stop();
    rmSync(dataDir, { recursive: true, force: true });
    return exit;
  };
  try {
    const { match } = await child.waitFor(/^demo chains ready: wrote (\S+) /, { timeoutMs: 180_000 });
    return { process: child, dataDir, envFile: match[1], env: readEnvFile(match[1]), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** What a service process is started with. */
export interface ServiceOptions {
  /** Also its `INSTANCE_ID`. */
  name: string;
  role: "all" | "api" | "worker";
  /** `INGEST_INTERVAL_S`. Default 3. */
  intervalS?: number;
  /** Anything else, last (wins). */
  env?: Record<string, string>;
}

/** An HTTP answer: status, headers and the body (parsed when it is JSON). */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** A route the process answers 404 for: waiting longer would not help. */
class RouteMissingError extends Error {}

/** A service process (`dist/main/start.js`) on a port of its own. */
export class ServiceProcess extends ClusterProcess {
  constructor(
    name: string,
    readonly role: ServiceOptions["role"],
    readonly port: number,
    readonly dataDir: string,
    env: Record<string, string>,
  ) {
    super(name, "dist/main/start.js", env);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** `INSTANCE_ID`. */
  get instanceId(): string {
    return this.name;
  }

  /** GET (or another method) on this process; a refused connection rejects. */
  async request(path: string, init: RequestInit = {}): Promise<HttpAnswer> {
    const response = await fetch(`${this.url}${path}`, { ...init, signal: init.signal ?? AbortSignal.timeout(10_000) });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON (Prometheus text, HTML): kept as text.
    }
    return { status: response.status, headers: response.headers, body };
  }

  /**
   * Polls `path` until `accept` takes the answer (default: status 200) and returns it; rejects when the process exits
   * first, at once on a 404 (the build does not serve the route), or after `timeoutMs` (with the last answer or error,
   * and the output).
   */
  async waitForHttp(
    path: string,
    options: { accept?: (answer: HttpAnswer) => boolean; timeoutMs?: number } = {},
  ): Promise<HttpAnswer> {
    const { accept = (answer) => answer.status === 200, timeoutMs = 90_000 } = options;
    const deadline = Date.now() + timeoutMs;
    let last: unknown = "no answer yet";
    for (;;) {
      if (!this.running) throw new Error(`${this.name} exited before ${path} answered:\n${this.output}`);
      try {
        const answer = await this.request(path);
        if (accept(answer)) return answer;
        if (answer.status === 404) throw new RouteMissingError(`${this.name} does not serve ${path} (404)`);
        last = `${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
      } catch (error) {
        if (error instanceof RouteMissingError) throw error;
        last = (error as Error).message;
      }
      if (Date.now() > deadline) {
        throw new Error(`${this.name}: ${path} never answered as expected (last: ${String(last)}):\n${this.output}`);
      }
      await sleep(200);
    }
  }
}

/**
 * Polls `check` every `intervalMs` until it returns a value other than undefined; rejects after `timeoutMs` naming
 * `what` (and the last error `check` threw, if any).
 */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 60_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out waiting for ${what}${lastError ? ` (last error: ${(lastError as Error).message})` : ""}`,
      );
    }
    await sleep(intervalMs);
  }
}

/**
 * A loopback HTTP proxy that answers GETs with what `target` (a base URL such as a feed's) answers at the same path,
 * holding those whose path matches `only` (default: every one) for `delayMs` first: a slow feed, so that a service's
 * pass stays in flight long enough for a test to act in it.
 *
 * @returns the proxy's base URL (the target's path kept) and `close()`.
 */
export async function startDelayProxy(
  target: string,
  delayMs: number,
  only: RegExp = /./,
): Promise<{ url: string; close(): Promise<void> }> {
  const base = new URL(target);
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    setTimeout(
      () => {
        fetch(`${base.origin}${path}`)
          .then(async (response) => {
            res.writeHead(response.status, { "content-type": response.headers.get("content-type") ?? "text/plain" });
            res.end(Buffer.from(await response.arrayBuffer()));
          })
          .catch(() => {
            if (!res.destroyed) res.destroy();
          });
      },
      only.test(path.split("?")[0]) ? delayMs : 0,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${base.pathname}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The chains, the database and the service processes of one test file; `stop()` ends them all. */
export interface Cluster {
  chains: DemoChainsProcess;
  postgres: TestPostgres;
  databaseUrl: string;
  services: ServiceProcess[];
  /**
   * Starts a service process (it does not wait for it): `SERVICE_ROLE`, `INSTANCE_ID` (its name), a free `PORT`,
   * `DATABASE_URL`, a DATA_DIR of its own, `INGEST_INTERVAL_S`, and every variable of `demo.env` but the attester key
   * for an `api` process (it needs none).
   */
  start(options: ServiceOptions): Promise<ServiceProcess>;
  /** One SQL statement on the cluster's database, on a connection of its own (closed after it). */
  sql<R extends object = Record<string, unknown>>(text: string, values?: unknown[]): Promise<R[]>;
  /** Stops every service (SIGTERM, SIGKILL after 10 s), the chains and PostgreSQL; removes their folders. */
  stop(): Promise<void>;
}

/**
 * Starts `demo:chains` and a PostgreSQL of the cluster's own (so a test may restart it), at the same time.
 *
 * @example
 * const cluster = await startCluster();
 * const a = await cluster.start({ name: "worker-a", role: "worker" });
 * await a.waitForHttp("/readyz");
 * await cluster.stop();
 */
export async function startCluster(options: { days?: number } = {}): Promise<Cluster> {
  const [chains, postgres] = await Promise.allSettled([startDemoChainsProcess(options), startPostgres()]);
  if (chains.status === "rejected" || postgres.status === "rejected") {
    if (chains.status === "fulfilled") await chains.value.stop();
    if (postgres.status === "fulfilled") await postgres.value.stop();
    throw chains.status === "rejected" ? chains.reason : (postgres as PromiseRejectedResult).reason;
  }
  const services: ServiceProcess[] = [];
  const databaseUrl = postgres.value.url;
  return {
    chains: chains.value,
    postgres: postgres.value,
    databaseUrl,
    services,
    async start({ name, role, intervalS = 3, env = {} }) {
      const demoEnv = { ...chains.value.env };
      if (role === "api") {
        // An api process never loads the key: ATTESTER_ADDRESS names the attester it vouches for.
        const key = readFileSync(demoEnv.ATTESTER_KEY_FILE, "utf8").trim() as Hex;
        demoEnv.ATTESTER_ADDRESS = privateKeyToAddress(key.startsWith("0x") ? key : (`0x${key}` as Hex));
        delete demoEnv.ATTESTER_KEY_FILE;
      }
      const dataDir = mkdtempSync(join(tmpdir(), `service-${name}-`));
      const port = await freePort();
      const service = new ServiceProcess(name, role, port, dataDir, {
        ...demoEnv,
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        SERVICE_ROLE: role,
        INSTANCE_ID: name,
        PORT: String(port),
        INGEST_INTERVAL_S: String(intervalS),
        ...env,
      });
      services.push(service);
      return service;
    },
    async sql<R extends object>(text: string, values: unknown[] = []) {
      const client = new pg.Client({ connectionString: databaseUrl });
      client.on("error", () => undefined); // a restart ends the session; the query's own promise reports it
      await client.connect();
      try {
        return (await client.query(text, values)).rows as R[];
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    async stop() {
      await Promise.all(services.map((service) => service.stop(10_000)));
      for (const service of services) rmSync(service.dataDir, { recursive: true, force: true });
      await chains.value.stop();
      await postgres.value.stop();
    },
  };
}

/**
 * `GET /readyz`'s body (docs/operations.md#probes-metrics-and-logs): 200 with `ready: true`, or 503 with `ready: false`
 * and the reasons.
 */
export interface ReadyBody {
  ready: boolean;
  role: "all" | "api" | "worker";
  instance: string;
  /** Whether this process leads the workers; null on a process that runs no passes (`api`). */
  leader: boolean | null;
  /** Unix seconds of the last pass this process finished, or null. */
  lastPassAt: number | null;
  reasons?: string[];
}

/**
 * Polls the running workers' `/readyz` until exactly one says `leader: true` and every other running one says
 * `false`; returns the leader. Rejects after `timeoutMs`.
 */
export async function waitForLeader(workers: readonly ServiceProcess[], timeoutMs = 30_000): Promise<ServiceProcess> {
  return until(
    `one leader among ${workers.map((worker) => worker.name).join(", ")}`,
    async () => {
      const running = workers.filter((worker) => worker.running);
      const bodies = await Promise.all(
        running.map(async (worker) => (await worker.request("/readyz")).body as ReadyBody),
      );
      const leaders = running.filter((_, i) => bodies[i].leader === true);
      return leaders.length === 1 && bodies.every((body) => typeof body.leader === "boolean") ? leaders[0] : undefined;
    },
    timeoutMs,
  );
}
