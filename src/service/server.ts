import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
} from "fastify";
import { buildApp, type AppOptions } from "./app";
import type { ServiceConfig } from "./config";
import { ApiErrorCode } from "./errors";

/** Body limit of every route (`POST /api/v1/verify` is the only one with a body). */
export const BODY_LIMIT = 64 * 1024;

/** Fastify instance options for the service (tests and the benchmark build the app with the same ones). */
export function serverOptions(config: Pick<ServiceConfig, "logLevel">): FastifyServerOptions {
  return {
    logger: config.logLevel === "silent" ? false : { level: config.logLevel },
    bodyLimit: BODY_LIMIT,
    routerOptions: { maxParamLength: 500, ignoreTrailingSlash: true },
    // Clients are keyed by their socket address; behind a proxy, terminate rate limiting there.
    trustProxy: false,
    forceCloseConnections: true,
    frameworkErrors: function routerError(error, request, reply) {
      const { status, body } = routerErrorBody(error);
      request.log.debug({ code: body.error.code }, body.error.message);
      void (reply as unknown as FastifyReply).code(status).send(body);
    },
    clientErrorHandler: clientError,
  };
}

/**
 * Errors the router raises before any route runs (a parameter that is not valid percent-encoding, or longer than
 * `maxParamLength`), in the API's error shape. The only route with a parameter is `GET /api/v1/pool/{pool}`; the
 * path is never echoed.
 */
export function routerErrorBody(error: FastifyError): { status: number; body: { error: Record<string, string> } } {
  const shapes = "use 0x<address>, <chainId>:0x<address> or eip155:<chainId>:0x<address>";
  if (error.code === "FST_ERR_BAD_URL" || error.code === "FST_ERR_MAX_PARAM_LENGTH") {
    const what =
      error.code === "FST_ERR_BAD_URL" ? "is not valid percent-encoded UTF-8" : "is longer than 500 characters";
    return {
      status: 400,
      body: { error: { code: ApiErrorCode.invalidPoolId, message: `The pool id ${what}; ${shapes}.`, field: "pool" } },
    };
  }
  return { status: 400, body: { error: { code: ApiErrorCode.invalidRequest, message: "Invalid request." } } };
}

/**
 * HTTP-level client errors (a malformed request line or header, a bad Content-Length, headers over the size limit,
 * a request timeout): Node answers them before Fastify sees a request. Same shape as every other error body.
 */
function clientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, code, message] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, ApiErrorCode.headersTooLarge, "The request headers are too large."]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, ApiErrorCode.requestTimeout, "The request was not received in time."]
        : [400, ApiErrorCode.badRequest, "The request is not valid HTTP."];
  this.log.debug({ err: error }, "client error");
  if (socket.writable) {
    const body = JSON.stringify({ error: { code, message } });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
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
