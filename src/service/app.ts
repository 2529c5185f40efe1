import { join } from "node:path";
import autoload from "@fastify/autoload";
import type { FastifyError, FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { ApiErrorCode } from "../errors/http";
import type { Store } from "../storage/openStore";
import type { ServiceConfig } from "../config/loadConfig";
import { toErrorBody } from "./errorBodies";
import { createMetrics, type ServiceMetrics } from "../metrics/serviceMetrics";
import { createServiceStatus, type ServiceStatus } from "./serviceStatus";
import attesterPlugin, { type AttesterOptions } from "./plugins/app/attester";
import authPlugin from "./plugins/app/auth";
import connectionLimitsPlugin from "./plugins/app/connection-limits";
import dappPlugin from "./plugins/app/dapp";
import httpMetricsPlugin from "./plugins/app/metrics";
import publicOriginPlugin from "./plugins/app/public-origin";
import readContextPlugin from "./plugins/app/read-context";
import probesPlugin from "./plugins/app/probes";
import readinessPlugin from "./plugins/app/readiness";
import requestIdPlugin from "./plugins/app/request-id";
import responseCachePlugin from "./plugins/app/response-cache";
import securityHeadersPlugin from "./plugins/app/security-headers";
import sessionPlugin from "./plugins/app/session";
import compressPlugin from "./plugins/external/compress";
import corsPlugin from "./plugins/external/cors";
import envPlugin from "./plugins/external/env";
import rateLimitPlugin from "./plugins/external/rate-limit";
import swaggerPlugin from "./plugins/external/swagger";
import declaredRoutes from "./declaredRoutes";
import { ErrorSchema } from "./schemas/error";

/** What the app is built from: the store it reads, the configuration and the attester it vouches for. */
export type AppOptions = {
  store: Pick<Store, "db">;
  config: ServiceConfig;
  /** The service's own attester (address only: the API never signs) and the registry, if any. */
  attester: AttesterOptions;
  /** Unix seconds; the freshness rule and `expired` use it. Defaults to the wall clock. */
  now?: () => number;
  /**
   * The process's status as `/readyz` reports it (role, instance, leader, last pass, draining); `main` owns it and
   * updates it. Default: a fresh one from `config.role` and `config.instanceId`.
   */
  status?: ServiceStatus;
  /** The process's Prometheus metrics (`GET /metrics`). Default: one shared by every app of this process built without. */
  metrics?: ServiceMetrics;
};

let sharedMetrics: ServiceMetrics | undefined;

/**
 * The metrics of an app built without any: one registry for all of them, made once (each registry starts prom-client's
 * event-loop and GC monitors, which are never stopped, so a test run building hundreds of apps must not make one each).
 */
function processMetrics(): ServiceMetrics {
  sharedMetrics ??= createMetrics();
  return sharedMetrics;
}

/**
 * The HTTP API as a Fastify plugin: request ids, HTTP metrics and the readiness check the probes read
 * (docs/operations.md#probes-metrics-and-logs), the connection limits and security headers (docs/security.md), external
 * plugins (env, swagger, CORS, rate limit), then the app plugins (attester, read context, response cache, API-key auth
 * for the keyed routes, the dapp's sign-in sessions), one error handler, then every route folder under `routes/` (the
 * folder is the URL, as fastify/demo autoloads them: the probes `/livez`, `/readyz` and `/metrics` too). `server.ts`
 * starts it. A new endpoint is one route folder and its test (a read surface: see "Add a read surface" in
 * docs/service.md): this file does not change.
 *
 * @example
 * import Fastify from "fastify";
 * import { buildApp } from "./service/app";
 * const app = Fastify(serverOptions(config));
 * await app.register(buildApp, { store, config, attester: { address, registry: null } });
 */
export const buildApp = fp(
  async function attestationService(fastify: FastifyInstance, options: AppOptions) {
    const { store, config, attester } = options;
    const now = options.now ?? (() => Math.floor(Date.now() / 1000));

    fastify.addSchema(ErrorSchema);
    // Before anything that may answer: every answer carries its x-request-id and is counted.
    await fastify.register(requestIdPlugin);
    await fastify.register(httpMetricsPlugin, { metrics: options.metrics ?? processMetrics() });
    const status = options.status ?? createServiceStatus({ role: config.role, instance: config.instanceId });
    await fastify.register(readinessPlugin, {
      store,
      status,
      ...(config.role === "api" ? { api: { attesterKnown: () => fastify.attesterKnown() } } : {}),
    });
    await fastify.register(probesPlugin, config.probes);
    // Then: the per-client connection cap and nosniff hold for every answer, the rate limit's 429 included.
    await fastify.register(connectionLimitsPlugin, {
      maxPerClient: config.connections.maxPerClient,
      trustProxy: config.trustProxy,
    });
    await fastify.register(securityHeadersPlugin);
    await fastify.register(envPlugin, { config });
    await fastify.register(swaggerPlugin);
    await fastify.register(corsPlugin);
    await fastify.register(rateLimitPlugin, { rateLimit: config.rateLimit });
    await fastify.register(compressPlugin);

    await fastify.register(publicOriginPlugin, { publicOrigin: config.publicOrigin, host: config.host });
    await fastify.register(attesterPlugin, attester);
    await fastify.register(readContextPlugin, { db: store.db, freshnessWindowS: config.freshnessWindowS, now });
    await fastify.register(responseCachePlugin, { ttlMs: config.cacheTtlMs });
    await fastify.register(authPlugin, { db: store.db });
    await fastify.register(sessionPlugin, { db: store.db, now, signIn: config.signIn });
    await fastify.register(dappPlugin);

    fastify.setErrorHandler(function handleError(error: FastifyError | Error, request, reply) {
      const { status, body, headers } = toErrorBody(error);
      // The store being away is expected and says so itself: one warn line per request, no stack (docs/operations.md).
      if (body.code === ApiErrorCode.storeUnavailable) request.log.warn({ code: body.code }, body.message);
      else if (status >= 500) request.log.error({ err: error }, "request failed");
      else request.log.debug({ code: body.code }, body.message);
      return reply.code(status).headers(headers).send({ error: body });
    });
    fastify.setNotFoundHandler(function notFound(request, reply) {
      return reply.code(404).send({
        error: {
          code: ApiErrorCode.routeNotFound,
          message: `No route ${request.method} ${request.url.split("?")[0].slice(0, 200)}; see GET /api/v1/openapi.json.`,
        },
      });
    });

    // The declared read surfaces' routes (src/read/defineSurface.ts), then the route folders.
    await fastify.register(declaredRoutes);
    await fastify.register(autoload, { dir: join(__dirname, "routes") });
  },
  { name: "attestation-service", fastify: "5.x" },
);
