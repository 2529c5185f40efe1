import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { RateLimitConfig } from "../../../config/loadConfig";
import { ApiError, ApiErrorCode } from "../../../errors/http";
import { clientAddressKey } from "../../clientAddress";

/**
 * The rate limits' key: the client address as `TRUST_PROXY` resolves it, an IPv6 client by its /64
 * ({@link clientAddressKey}); every limit, sign-in and MCP included.
 */
export function clientKey(request: FastifyRequest): string {
  return clientAddressKey(request.ip);
}

/**
 * Per-client-address rate limit on every route (`max` per window); `POST /api/v1/verify` sets its own stricter
 * limit in its route config, and so do `GET /auth/nonce` and `POST /auth/verify` (`RATE_LIMIT_SIGN_IN_MAX`, each
 * route its own count per client). The probes (`/livez`, `/readyz`) and `/metrics` opt out (`rateLimit: false` in
 * their route config): an orchestrator polling them never uses up a bucket, and a client at its limit never makes the
 * process look unready. With `false` nothing is registered (benchmarks).
 *
 * The key is `request.ip`: the socket's address, or behind a proxy the client `TRUST_PROXY` resolves from
 * `X-Forwarded-For` (serverOptions' `trustProxy`), so that two clients behind one proxy have two buckets.
 */
export default fp(
  async function rateLimitPlugin(fastify: FastifyInstance, { rateLimit: limits }: { rateLimit: RateLimitConfig }) {
    if (limits === false) return;
    await fastify.register(rateLimit, {
      global: true,
      max: limits.max,
      timeWindow: limits.windowMs,
      keyGenerator: clientKey,
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
