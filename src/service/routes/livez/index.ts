import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { LivezSchema } from "../../schemas/probes";

/**
 * `GET /livez`: 200 `{"live":true}` while the process runs (docs/operations.md#probes-metrics-and-logs). It asks
 * nothing of the store: a database outage makes the process not ready, never dead. Never rate limited; hidden from the
 * OpenAPI document.
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    "/",
    { schema: { hide: true, response: { 200: LivezSchema } }, config: { rateLimit: false } },
    async function livez(_request, reply) {
      void reply.header("cache-control", "no-store");
      return { live: true as const };
    },
  );
};

export default plugin;
