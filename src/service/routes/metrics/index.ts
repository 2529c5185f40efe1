import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { PROBE_CACHE_MS, cachedFor } from "../../plugins/app/probes";

/**
 * `GET /metrics`: this process's Prometheus metrics in the text exposition format (the series are declared in
 * src/metrics/serviceMetrics.ts). Outside the API's rate limit, under its own per-client limit (`PROBE_RATE_LIMIT` a
 * second); the text is rendered at most once a second; with `METRICS_TOKEN` set, it needs that bearer (401
 * otherwise). Keep it off the public side of the proxy all the same (docs/operations.md); hidden from the OpenAPI
 * document.
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { registry } = fastify.serviceMetrics;
  const render = cachedFor(PROBE_CACHE_MS, () => registry.metrics());
  fastify.get(
    "/",
    {
      schema: { hide: true },
      config: { rateLimit: false },
      onRequest: [fastify.probes.limiter(), fastify.probes.requireMetricsToken],
    },
    async function metrics(_request, reply) {
      const text = await render();
      return reply.header("content-type", registry.contentType).header("cache-control", "no-store").send(text);
    },
  );
};

export default plugin;
