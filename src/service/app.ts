import type { FastifyError, FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Store } from "../storage/openStore";
import type { ServiceConfig } from "./config";
import { ApiError, ApiErrorCode } from "./errors";
import attesterPlugin from "./plugins/app/attester";
import poolsRepositoryPlugin from "./plugins/app/pools-repository";
import corsPlugin from "./plugins/external/cors";
import envPlugin from "./plugins/external/env";
import rateLimitPlugin from "./plugins/external/rate-limit";
import swaggerPlugin from "./plugins/external/swagger";
import v1Routes from "./routes/api/v1";
import attesterRoutes from "./routes/api/v1/attester";
import healthRoutes from "./routes/api/v1/health";
import poolRoutes from "./routes/api/v1/pool";
import poolsRoutes from "./routes/api/v1/pools";
import verifyRoutes from "./routes/api/v1/verify";
import { ErrorSchema } from "./schemas";

/** What the app is built from: the store it reads, the configuration and the attester it vouches for. */
export type AppOptions = {
  store: Pick<Store, "db">;
  config: ServiceConfig;
  /** The service's own attester (address only: the API never signs) and the registry, if any. */
  attester: { address: string; registry: { chainId: number; address: string } | null };
  /** Unix seconds; the freshness rule and `expired` use it. Defaults to the wall clock. */
  now?: () => number;
};

/**
 * The HTTP API as a Fastify plugin: external plugins (env, swagger, CORS, rate limit), then the app plugins
 * (attester, pools repository), then the routes under `/api/v1`, with one error handler. `server.ts` starts it.
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
    await fastify.register(envPlugin, { config });
    await fastify.register(swaggerPlugin);
    await fastify.register(corsPlugin);
    await fastify.register(rateLimitPlugin, { rateLimit: config.rateLimit });

    await fastify.register(attesterPlugin, attester);
    await fastify.register(poolsRepositoryPlugin, {
      db: store.db,
      freshnessWindowS: config.freshnessWindowS,
      cacheTtlMs: config.cacheTtlMs,
      now,
    });

    fastify.setErrorHandler(function handleError(error: FastifyError | ApiError, request, reply) {
      const { status, body } = toErrorBody(error);
      if (status >= 500) request.log.error({ err: error }, "request failed");
      else request.log.debug({ code: body.code }, body.message);
      return reply.code(status).send({ error: body });
    });
    fastify.setNotFoundHandler(function notFound(request, reply) {
      return reply.code(404).send({
        error: {
          code: ApiErrorCode.routeNotFound,
          message: `No route ${request.method} ${request.url.split("?")[0].slice(0, 200)}; see GET /api/v1/openapi.json.`,
        },
      });
    });

    await fastify.register(v1Routes, { prefix: "/api/v1" });
    await fastify.register(poolsRoutes, { prefix: "/api/v1/pools" });
    await fastify.register(poolRoutes, { prefix: "/api/v1/pool" });
    await fastify.register(attesterRoutes, { prefix: "/api/v1/attester" });
    await fastify.register(healthRoutes, { prefix: "/api/v1/health" });
    await fastify.register(verifyRoutes, {
      prefix: "/api/v1/verify",
      rateLimit:
        config.rateLimit === false ? false : { max: config.rateLimit.verifyMax, timeWindow: config.rateLimit.windowMs },
    });
  },
  { name: "attestation-service", fastify: "5.x" },
);

type ErrorBody = { code: string; message: string; [extra: string]: unknown };

/** Maps any error to a status and a stable body. Bad input is always a 4xx; a 5xx never shows internals. */
export function toErrorBody(error: FastifyError | ApiError): { status: number; body: ErrorBody } {
  if (error instanceof ApiError) {
    return { status: error.statusCode, body: { code: error.code, message: error.shortMessage, ...error.extra } };
  }
  const validation = (error as FastifyError).validation;
  if (validation && validation.length > 0) {
    const first = validation[0] as { instancePath?: string; message?: string; params?: { missingProperty?: string } };
    const path = [first.instancePath?.replace(/^\//, "").replace(/\//g, "."), first.params?.missingProperty]
      .filter((part) => part)
      .join(".");
    const context = (error as FastifyError).validationContext ?? "request";
    return {
      status: 400,
      body: {
        code: ApiErrorCode.invalidRequest,
        message: `Invalid ${context}${path ? ` field "${path}"` : ""}: ${first.message ?? "does not match the schema"}.`,
        ...(path ? { field: path } : {}),
      },
    };
  }
  const byFastifyCode: Record<string, [number, ApiErrorCode, string]> = {
    FST_ERR_CTP_BODY_TOO_LARGE: [413, ApiErrorCode.bodyTooLarge, "The request body is larger than 64 KiB."],
    FST_ERR_CTP_INVALID_MEDIA_TYPE: [
      415,
      ApiErrorCode.unsupportedMediaType,
      "Unsupported Content-Type; send application/json.",
    ],
    FST_ERR_CTP_EMPTY_JSON_BODY: [400, ApiErrorCode.invalidJson, "The body is empty; send the attestation JSON."],
    FST_ERR_CTP_INVALID_JSON_BODY: [400, ApiErrorCode.invalidJson, "The body is not valid JSON."],
  };
  const known = byFastifyCode[(error as FastifyError).code];
  if (known) return { status: known[0], body: { code: known[1], message: known[2] } };
  const status = (error as FastifyError).statusCode;
  if (status === 429) return { status, body: { code: ApiErrorCode.rateLimited, message: "Rate limit exceeded." } };
  if (status !== undefined && status >= 400 && status < 500) {
    return { status, body: { code: ApiErrorCode.invalidRequest, message: error.message.split("\n")[0] } };
  }
  if (status === 503) return { status, body: { code: ApiErrorCode.unavailable, message: "Service unavailable." } };
  return { status: 500, body: { code: ApiErrorCode.internal, message: "Internal server error." } };
}
