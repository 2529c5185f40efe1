import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
} from "fastify";
import { buildApp, type AppOptions } from "./app";
import type { ServiceConfig } from "../config/loadConfig";
import { clientError, routerErrorBody } from "./errorBodies";

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
      const { status, body } = routerErrorBody(error, request.url);
      request.log.debug({ code: body.error.code }, body.error.message);
      void (reply as unknown as FastifyReply).code(status).send(body);
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
