import Fastify, { type FastifyInstance, type FastifyReply, type FastifyHttpOptions } from "fastify";
import type { Server } from "node:http";
import { buildApp, type AppOptions } from "./app";
import type { ServiceConfig, TrustProxyConfig } from "../config/loadConfig";
import { clientError, routerErrorBody } from "./errorBodies";
import { countAnswer } from "./plugins/app/metrics";
import { REQUEST_ID_HEADER, requestIdOf } from "./plugins/app/request-id";

/** Body limit of every route (`POST /api/v1/verify` is the only one with a body). */
export const BODY_LIMIT = 64 * 1024;

/** Fastify's keep-alive timeout (its default): an idle kept-alive connection is closed after 72 s. */
export const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/**
 * Node's own timeouts against slow clients (docs/security.md#connections-and-slow-clients). `requestTimeout`: the whole
 * request, headers and body, must arrive within `REQUEST_TIMEOUT_S`, else the client error handler answers 408 and the
 * socket is destroyed (a body dribbled one byte at a time cannot hold a socket longer). `headersTimeout` (at most the
 * request timeout, as Node requires): the same bound for the headers, which also closes a socket that never sends a
 * byte. Node checks both every `connectionsCheckingInterval` (1 s; its default of 30 s would let a socket outlive the
 * timeout by that much). `connectionTimeout`: a socket with no byte either way for max(120 s, 2 × the request timeout)
 * is destroyed (a client that never reads its answer). `keepAliveTimeout`: Fastify's 72 s between requests on a
 * kept-alive socket.
 */
export function timeoutOptions(
  limits: ServiceConfig["connections"],
): Pick<FastifyHttpOptions<Server>, "requestTimeout" | "connectionTimeout" | "keepAliveTimeout" | "http"> {
  const requestTimeout = limits.requestTimeoutMs;
  return {
    requestTimeout,
    connectionTimeout: Math.max(120_000, 2 * requestTimeout),
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    http: {
      requestTimeout,
      headersTimeout: Math.min(60_000, requestTimeout),
      connectionsCheckingInterval: Math.min(1000, Math.max(100, Math.floor(requestTimeout / 4))),
    },
  };
}

/**
 * `TRUST_PROXY` as Fastify's `trustProxy`: false (the socket's address is the client), the proxies' addresses/CIDRs,
 * or a hop count as a function (this Fastify refuses a bare number: it trusts no hop then), trusting the `n` nearest
 * hops whatever their address, as proxy-addr reads a count. A hop count lets anyone who reaches the port directly name
 * any client in `X-Forwarded-For`: use it only when the port is reachable through the proxy alone.
 */
export function fastifyTrustProxy(
  trustProxy: TrustProxyConfig,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (trustProxy === false || trustProxy === 0) return false;
  if (typeof trustProxy === "number") return (_address, hop) => hop < trustProxy;
  return trustProxy;
}

/** Where the server's log lines go: stdout by default; tests capture them. */
export type LogStream = { write(line: string): void };

/**
 * Fastify instance options for the service (tests and the benchmark build the app with the same ones).
 *
 * Logs: pino, one JSON object per line, at `LOG_LEVEL`, each naming `instance` (`INSTANCE_ID`) and, for a request's
 * lines, its `reqId`. Request ids: the caller's valid `x-request-id`, else a random UUID (`requestIdOf`; Fastify's own
 * `requestIdHeader` is off because it would take any header unchecked). `trustProxy`: `TRUST_PROXY`
 * (docs/operations.md#behind-a-proxy): the client address (`request.ip`) the rate limits, sign-in limits and logs use
 * comes from `X-Forwarded-For` through the trusted hops only.
 */
export function serverOptions(
  config: Pick<ServiceConfig, "logLevel" | "connections" | "trustProxy" | "instanceId">,
  logStream?: LogStream,
): FastifyHttpOptions<Server> {
  const logger = {
    level: config.logLevel,
    base: { instance: config.instanceId },
    ...(logStream ? { stream: logStream } : {}),
  };
  return {
    ...timeoutOptions(config.connections),
    logger: config.logLevel === "silent" ? false : logger,
    bodyLimit: BODY_LIMIT,
    routerOptions: { maxParamLength: 500, ignoreTrailingSlash: true },
    trustProxy: fastifyTrustProxy(config.trustProxy),
    requestIdHeader: false,
    genReqId: requestIdOf,
    // On close, only idle kept-alive connections are cut: a request in flight gets its answer (see closeServer).
    forceCloseConnections: "idle",
    frameworkErrors: function routerError(error, request, reply) {
      const { status, body } = routerErrorBody(error, request.url);
      request.log.debug({ code: body.error.code }, body.error.message);
      // Raised before any hook runs: the nosniff of every JSON answer, the request id and the count are
      // done here.
      const answer = reply as unknown as FastifyReply;
      void answer.code(status).header("x-content-type-options", "nosniff").header(REQUEST_ID_HEADER, request.id);
      void answer.send(body);
      const { serviceMetrics } = request.server;
      if (serviceMetrics !== undefined) countAnswer(serviceMetrics, request, answer);
    },
    clientErrorHandler: clientError,
  };
}

/** What {@link createServer} builds from: the app's options and, for tests, where the logs go. */
export type ServerParameters = AppOptions & { logStream?: LogStream };

/** Builds the app (not listening): for `app.inject` and for {@link startServer}. */
export async function createServer(options: ServerParameters): Promise<FastifyInstance> {
  const app = Fastify(serverOptions(options.config, options.logStream));
  await app.register(buildApp, options);
  await app.ready();
  return app;
}

/** Builds the app and listens on `config.host:config.port`. Returns the app and the address it listens on. */
export async function startServer(options: ServerParameters): Promise<{ app: FastifyInstance; url: string }> {
  const app = await createServer(options);
  const url = await app.listen({ port: options.config.port, host: options.config.host });
  return { app, url };
}

/** How often a draining server closes the connections that went idle since (their request answered). */
const DRAIN_SWEEP_MS = 100;

/** How long a draining server keeps listening, answering `/readyz` 503, before it stops accepting connections. */
export const NOT_READY_FIRST_MS = 1000;

/**
 * Closes the server gracefully (SIGTERM): for {@link NOT_READY_FIRST_MS} it still serves (`/readyz` says 503); then no
 * new connection is accepted, a request arriving on a kept-alive connection
 * is answered 503 (Fastify's `return503OnClosing`), requests in flight get their whole answer and their connection is
 * closed once it is idle; after `graceMs` whatever is still open is cut. Resolves when the server is closed.
 *
 * @param app the listening app ({@link startServer}).
 * @param graceMs `SHUTDOWN_GRACE_S` in ms.
 * @example
 * import { closeServer, startServer } from "./service/server";
 * const { app } = await startServer(options);
 * await closeServer(app, config.shutdownGraceMs);
 */
export async function closeServer(app: FastifyInstance, graceMs: number): Promise<void> {
  // Not ready first (docs/operations.md#shutting-down): the caller has set `status.draining`, so for this long
  // `/readyz` answers 503 while the listener still serves, and a load balancer polling it sees "not ready" rather than
  // a refused connection.
  await new Promise((resolve) => setTimeout(resolve, Math.min(NOT_READY_FIRST_MS, graceMs)));
  const sweep = setInterval(() => app.server.closeIdleConnections(), DRAIN_SWEEP_MS);
  const cut = setTimeout(() => app.server.closeAllConnections(), graceMs);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
    clearTimeout(cut);
  }
}
