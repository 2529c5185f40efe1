import Fastify, { type FastifyError, type FastifyInstance } from "fastify";
import type { ServiceConfig } from "../config/loadConfig";
import { ApiErrorCode } from "../errors/http";
import type { Store } from "../storage/openStore";
import { toErrorBody } from "./errorBodies";
import type { ServiceMetrics } from "../metrics/serviceMetrics";
import connectionLimitsPlugin from "./plugins/app/connection-limits";
import httpMetricsPlugin from "./plugins/app/metrics";
import probesPlugin from "./plugins/app/probes";
import readinessPlugin from "./plugins/app/readiness";
import requestIdPlugin from "./plugins/app/request-id";
import securityHeadersPlugin from "./plugins/app/security-headers";
import livezRoutes from "./routes/livez";
import metricsRoutes from "./routes/metrics";
import readyzRoutes from "./routes/readyz";
import { serverOptions, type LogStream } from "./server";
import type { ServiceStatus } from "./serviceStatus";

/** What a probes-only server is built from. */
export type ProbeServerParameters = {
  config: ServiceConfig;
  /** The store `/readyz` checks (only its `db` is used). */
  store: Pick<Store, "db">;
  /** The process's status (`main` updates it: leader, last pass, draining). */
  status: ServiceStatus;
  /** The process's metrics (the ingestion and alert series the worker counts are served with the HTTP ones). */
  metrics: ServiceMetrics;
  /** Where the server's log lines go (tests); stdout by default. */
  logStream?: LogStream;
};

/** The only paths a probes-only server answers. */
export const PROBE_PATHS = ["/livez", "/readyz", "/metrics"] as const;

/**
 * The HTTP server of a `SERVICE_ROLE=worker` process (docs/operations.md#probes-metrics-and-logs): only `GET /livez`,
 * `GET /readyz` and `GET /metrics`, the same routes, request ids, HTTP metrics, timeouts and connection cap as the full
 * app; anything else is a 404 naming the three. Not listening: {@link startProbeServer} listens.
 */
export async function createProbeServer(parameters: ProbeServerParameters): Promise<FastifyInstance> {
  const { config, store, status, metrics } = parameters;
  const app = Fastify(serverOptions(config, parameters.logStream));
  await app.register(requestIdPlugin);
  await app.register(httpMetricsPlugin, { metrics });
  await app.register(readinessPlugin, { store, status });
  await app.register(probesPlugin, config.probes);
  await app.register(connectionLimitsPlugin, {
    maxPerClient: config.connections.maxPerClient,
    trustProxy: config.trustProxy,
  });
  await app.register(securityHeadersPlugin);
  app.setErrorHandler(function handleError(error: FastifyError | Error, request, reply) {
    const { status: code, body } = toErrorBody(error);
    if (code >= 500) request.log.error({ err: error }, "request failed");
    return reply.code(code).send({ error: body });
  });
  app.setNotFoundHandler(function notFound(request, reply) {
    return reply.code(404).send({
      error: {
        code: ApiErrorCode.routeNotFound,
        message: `No route ${request.method} ${request.url.split("?")[0].slice(0, 200)}; a worker serves only ${PROBE_PATHS.join(", ")}.`,
      },
    });
  });
  await app.register(livezRoutes, { prefix: "/livez" });
  await app.register(readyzRoutes, { prefix: "/readyz" });
  await app.register(metricsRoutes, { prefix: "/metrics" });
  await app.ready();
  return app;
}

/**
 * Builds the probes-only server and listens on `config.host:config.port` (a worker's port): what a
 * `SERVICE_ROLE=worker` process serves. Close it with `app.close()`.
 *
 * @param {@link ProbeServerParameters}
 * @returns the server and the address it listens on.
 * @example
 * const { app, url } = await startProbeServer({ config, store, status, metrics });
 * // curl ${url}/readyz
 * await app.close();
 */
export async function startProbeServer(
  parameters: ProbeServerParameters,
): Promise<{ app: FastifyInstance; url: string }> {
  const app = await createProbeServer(parameters);
  const url = await app.listen({ port: parameters.config.port, host: parameters.config.host });
  return { app, url };
}
