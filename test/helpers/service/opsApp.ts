import type { FastifyInstance } from "fastify";
import { loadConfig } from "../../../src/config/loadConfig";
import type { ServiceMetrics } from "../../../src/metrics/serviceMetrics";
import { createServer } from "../../../src/service/server";
import type { ServiceStatus } from "../../../src/service/serviceStatus";
import type { Store } from "../../../src/storage/openStore";
import { NOW, TEST_ATTESTER, openTempStore } from "./app";

/** The lines a server's logger wrote, parsed (each must be one JSON object). */
export class CapturedLog {
  readonly raw: string[] = [];
  write(line: string): void {
    this.raw.push(line);
  }
  /** Every line as its JSON object (throws on a line that is not JSON). */
  lines(): Record<string, unknown>[] {
    return this.raw.flatMap((chunk) => chunk.split("\n").filter((line) => line !== "")).map((line) => JSON.parse(line));
  }
}

/**
 * The real app (production server options) over `store`, with the operations options a test sets: the process status,
 * the metrics, and a captured log (then at `LOG_LEVEL`, `info` unless `env` says otherwise).
 */
export async function buildOpsApp(
  store: Pick<Store, "db">,
  env: Record<string, string> = {},
  options: { status?: ServiceStatus; metrics?: ServiceMetrics; log?: CapturedLog } = {},
): Promise<FastifyInstance> {
  const level = options.log === undefined ? "silent" : "info";
  const config = loadConfig({ env: { LOG_LEVEL: level, INSTANCE_ID: "ops-test-1", ...env } });
  return createServer({
    store,
    config,
    attester: { address: TEST_ATTESTER, registry: null },
    now: () => NOW,
    status: options.status,
    metrics: options.metrics,
    logStream: options.log,
  });
}

/** Listens on a loopback port; returns the base URL. */
export async function listenLoopback(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

/** A test's ops app (see `useOpsApp`). */
export type OpsAppSuite = {
  /** A temporary store, fresh for each test. */
  temp: Awaited<ReturnType<typeof openTempStore>>;
  /** The app the test built, closed after it (set it when the test builds one on another store). */
  app: FastifyInstance | undefined;
  /** `buildOpsApp` on the test's temporary store; the app is closed after the test. */
  build(env?: Record<string, string>, options?: Parameters<typeof buildOpsApp>[2]): Promise<FastifyInstance>;
};

/**
 * Registers the hooks of a suite of ops apps: before each test, a fresh temporary store; after it, the test's app
 * closed and the store removed.
 */
export function useOpsApp(): OpsAppSuite {
  const suite: OpsAppSuite = {
    temp: undefined as unknown as OpsAppSuite["temp"],
    app: undefined,
    async build(env = {}, options = {}) {
      suite.app = await buildOpsApp(suite.temp.store, env, options);
      return suite.app;
    },
  };
  beforeEach(async function () {
    suite.temp = await openTempStore();
  });
  afterEach(async function () {
    await suite.app?.close();
    suite.app = undefined;
    await suite.temp.cleanup();
  });
  return suite;
}
