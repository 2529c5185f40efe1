import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { RateLimitConfig } from "../../../config/loadConfig";
import { ApiError, ApiErrorCode } from "../../../errors/http";

/**
 * Per-client-address rate limit on every route (`max` per window); `POST /api/v1/verify` sets its own stricter
 * limit in its route config, and so do `GET /auth/nonce` and `POST /auth/verify` (`RATE_LIMIT_SIGN_IN_MAX`, each
 * route its own count per client). With `false` nothing is registered (benchmarks).
 */
export default fp(
  async function rateLimitPlugin(fastify: FastifyInstance, { rateLimit: limits }: { rateLimit: RateLimitConfig }) {
    if (limits === false) return;
    await fastify.register(rateLimit, {
      global: true,
      max: limits.max,
      timeWindow: limits.windowMs,
      keyGenerator: (request) => request.ip,
      errorResponseBuilder: (_request, context) =>
        new ApiError({
          statusCode: 429,
          code: ApiErrorCode.rateLimited,
          message: `Rate limit of ${context.max} requests exceeded; retry in ${context.after}.`,
          extra: { retryAfterMs: context.ttl },
        }),
    });
  },
  { name: "rate-limit" },
);
