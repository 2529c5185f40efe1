import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { ApiError, ApiErrorCode } from "../../../errors/http";
import { clientAddressKey } from "../../clientAddress";

/** How long a `/readyz` verdict's store checks and a `/metrics` text are reused: one second. */
export const PROBE_CACHE_MS = 1000;

export type ProbesOptions = {
  /** `PROBE_RATE_LIMIT`: requests per second per client to each of `/readyz` and `/metrics`; 0 = no limit. */
  perClientPerSecond: number;
  /** `METRICS_TOKEN`: the bearer `/metrics` requires, or null (open). */
  metricsToken: string | null;
};

/** An `onRequest` hook. */
type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module "fastify" {
  interface FastifyInstance {
    /** The guards of `/readyz` and `/metrics` (never of `/livez`). */
    probes: {
      /** A new per-client limit (its own count) for one route, as an `onRequest` hook; a no-op when off. */
      limiter(): Hook;
      /** Refuses a `/metrics` request without the `METRICS_TOKEN` bearer (401); a no-op when none is set. */
      requireMetricsToken: Hook;
    };
  }
}

/**
 * A fixed one-second window per client address (`request.ip`, as `TRUST_PROXY` resolves it): at most `max` requests
 * a second, else 429 `RATE_LIMITED`. The counts are dropped at every new second, so memory holds only the addresses
 * of the current second. The API's own limit is per minute and shared by its routes; a probe needs its own, smaller
 * and faster one, that a flood of `/metrics` from one address cannot turn into work for the store or the CPU.
 */
export function perSecondLimiter(max: number, nowMs: () => number = Date.now): Hook {
  let second = -1;
  let counts = new Map<string, number>();
  return async function probeLimit(request) {
    if (max === 0) return;
    const now = Math.floor(nowMs() / 1000);
    if (now !== second) {
      second = now;
      counts = new Map();
    }
    const client = clientAddressKey(request.ip);
    const n = (counts.get(client) ?? 0) + 1;
    counts.set(client, n);
    if (n > max) {
      throw new ApiError({
        statusCode: 429,
        code: ApiErrorCode.rateLimited,
        message: `Rate limit of ${max} requests a second exceeded for this probe; retry in 1 second.`,
        extra: { retryAfterMs: 1000 },
      });
    }
  };
}

/** Whether `given` equals `expected`, in time independent of where they differ. */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A value computed at most once per `ttlMs`: callers within that time (and while it is computed) share one result.
 * A computation that throws is not kept.
 */
export function cachedFor<T>(
  ttlMs: number,
  compute: () => Promise<T>,
  nowMs: () => number = Date.now,
): () => Promise<T> {
  let at = -Infinity;
  let value: Promise<T> | null = null;
  return () => {
    if (value !== null && nowMs() - at < ttlMs) return value;
    at = nowMs();
    const current = compute();
    value = current;
    current.catch(() => {
      if (value === current) value = null;
    });
    return current;
  };
}

/** Decorates `fastify.probes`: the per-client limits of `/readyz` and `/metrics` and the `/metrics` bearer check. */
export default fp(
  async function probes(fastify: FastifyInstance, options: ProbesOptions) {
    fastify.decorate("probes", {
      limiter: () => perSecondLimiter(options.perClientPerSecond),
      requireMetricsToken: async (request: FastifyRequest, reply: FastifyReply) => {
        if (options.metricsToken === null) return;
        const header = request.headers.authorization ?? "";
        const given = header.startsWith("Bearer ") ? header.slice("Bearer ".length).trim() : "";
        if (!sameSecret(given, options.metricsToken)) {
          void reply.header("www-authenticate", 'Bearer realm="metrics"');
          throw new ApiError({
            statusCode: 401,
            code: ApiErrorCode.unauthorized,
            message: "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.",
          });
        }
      },
    });
  },
  { name: "probes" },
);
