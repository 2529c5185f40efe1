import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { ServiceMetrics } from "../../../metrics/serviceMetrics";

/** The `route` label of an answer no route matched (404s, router errors): never the raw URL. */
export const UNMATCHED_ROUTE = "unmatched";

declare module "fastify" {
  interface FastifyInstance {
    /** This process's Prometheus metrics (`GET /metrics` serves them). */
    serviceMetrics: ServiceMetrics;
  }
}

/**
 * Counts one answered request in `attest_http_requests_total` and `attest_http_request_duration_seconds`. `route` is
 * the matched route's pattern (`/api/v1/pool/:pool`), so that the labels stay bounded whatever URLs clients send.
 */
export function countAnswer(metrics: ServiceMetrics, request: FastifyRequest, reply: FastifyReply): void {
  const labels = {
    method: request.method,
    route: request.routeOptions.url ?? UNMATCHED_ROUTE,
    status: String(reply.statusCode),
  };
  metrics.httpRequests.inc(labels);
  metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
}

/**
 * Decorates `fastify.serviceMetrics` and counts every answer on `onResponse`. Fastify's router errors
 * skip the hooks: serverOptions' `frameworkErrors` counts those with {@link countAnswer}.
 */
export default fp(
  async function httpMetrics(fastify: FastifyInstance, options: { metrics: ServiceMetrics }) {
    fastify.decorate("serviceMetrics", options.metrics);
    fastify.addHook("onResponse", async function countHttpAnswer(request, reply) {
      countAnswer(options.metrics, request, reply);
    });
  },
  { name: "http-metrics", fastify: "5.x" },
);
