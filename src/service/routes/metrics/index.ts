import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";

/**
 * `GET /metrics`: this process's Prometheus metrics in the text exposition format (DESIGN §11; the series are declared
 * in src/service/metrics.ts). Never rate limited, not authenticated (keep it off the public side of the proxy: see
 * docs/operations.md); hidden from the OpenAPI document.
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get("/", { schema: { hide: true }, config: { rateLimit: false } }, async function metrics(_request, reply) {
    const { registry } = fastify.serviceMetrics;
    const text = await registry.metrics();
    return reply.header("content-type", registry.contentType).header("cache-control", "no-store").send(text);
  });
};

export default plugin;
