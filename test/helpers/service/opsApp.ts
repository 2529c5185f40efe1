import type { FastifyInstance } from "fastify";
import { loadConfig } from "../../../src/config/loadConfig";
import type { ServiceMetrics } from "../../../src/service/metrics";
import { createServer } from "../../../src/service/server";
import type { ServiceStatus } from "../../../src/service/serviceStatus";
import type { Store } from "../../../src/storage/openStore";
import { NOW, TEST_ATTESTER } from "./app";

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
