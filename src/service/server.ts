import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyHttpOptions } from "fastify";
import type { Server } from "node:http";
import { buildApp, type AppOptions } from "./app";
import type { ServiceConfig } from "../config/loadConfig";
import { clientError, routerErrorBody } from "./errorBodies";

/** Body limit of every route (`POST /api/v1/verify` is the only one with a body). */
export const BODY_LIMIT = 64 * 1024;

/** Fastify's keep-alive timeout (its default): an idle kept-alive connection is closed after 72 s. */
export const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/**
 * Node's own timeouts for DESIGN §13 (docs/security.md). `requestTimeout`: the whole request, headers and body, must
 * arrive within `REQUEST_TIMEOUT_S`, else the client error handler answers 408 and the socket is destroyed (a body
 * dribbled one byte at a time cannot hold a socket longer). `headersTimeout` (at most the request timeout, as Node
 * requires): the same bound for the headers, which also closes a socket that never sends a byte. Node checks both
 * every `connectionsCheckingInterval` (1 s; its default of 30 s would let a socket outlive the timeout by that much).
 * `connectionTimeout`: a socket with no byte either way for max(120 s, 2 × the request timeout) is destroyed (a
 * client that never reads its answer). `keepAliveTimeout`: Fastify's 72 s between requests on a kept-alive socket.
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

/** Fastify instance options for the service (tests and the benchmark build the app with the same ones). */
export function serverOptions(config: Pick<ServiceConfig, "logLevel" | "connections">): FastifyHttpOptions<Server> {
  return {
    ...timeoutOptions(config.connections),
    logger: config.logLevel === "silent" ? false : { level: config.logLevel },
    bodyLimit: BODY_LIMIT,
    routerOptions: { maxParamLength: 500, ignoreTrailingSlash: true },
    // Clients are keyed by their socket address; behind a proxy, terminate rate limiting there.
    trustProxy: false,
    // On close, only idle kept-alive connections are cut: a request in flight gets its answer (see closeServer).
    forceCloseConnections: "idle",
    frameworkErrors: function routerError(error, request, reply) {
      const { status, body } = routerErrorBody(error, request.url);
      request.log.debug({ code: body.error.code }, body.error.message);
      // Raised before any hook runs: the nosniff of every JSON answer (DESIGN §13) is set here.
      void (reply as unknown as FastifyReply).code(status).header("x-content-type-options", "nosniff").send(body);
    },
    clientErrorHandler: clientError,
  };
}

/** Builds the app (not listening): for `app.inject` and for {@link startServer}. */
export async function createServer(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify(serverOptions(options.config));
  await app.register(buildApp, options);
  await app.ready();
  return app;
}

/** Builds the app and listens on `config.host:config.port`. Returns the app and the address it listens on. */
export async function startServer(options: AppOptions): Promise<{ app: FastifyInstance; url: string }> {
  const app = await createServer(options);
  const url = await app.listen({ port: options.config.port, host: options.config.host });
  return { app, url };
}

/** How often a draining server closes the connections that went idle since (their request answered). */
const DRAIN_SWEEP_MS = 100;

/**
 * Closes the server gracefully (SIGTERM): no new connection is accepted, a request arriving on a kept-alive connection
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
  const sweep = setInterval(() => app.server.closeIdleConnections(), DRAIN_SWEEP_MS);
  const cut = setTimeout(() => app.server.closeAllConnections(), graceMs);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
    clearTimeout(cut);
  }
}
