import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ReadyzNotReadySchema, ReadyzOkSchema } from "../../schemas/probes";

/**
 * `GET /readyz` (docs/operations.md#probes-metrics-and-logs): 200
 * `{"ready":true,"role","instance","leader","lastPassAt"}` when the store answers within the timeout, its schema is
 * current and the process is not draining; else 503 with `"ready":false` and the `reasons`. The values come from the
 * process's `ServiceStatus` (`fastify.serviceStatus`), the verdict from `fastify.readiness()`
 * (plugins/app/readiness.ts), whose store checks are reused for up to a second. Outside the API's rate limit, under its
 * own per-client limit (`PROBE_RATE_LIMIT` a second); hidden from the OpenAPI document.
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    "/",
    {
      schema: { hide: true, response: { 200: ReadyzOkSchema, 503: ReadyzNotReadySchema } },
      config: { rateLimit: false },
      onRequest: fastify.probes.limiter(),
    },
    async function readyz(_request, reply) {
      const { ready, reasons } = await fastify.readiness();
      const { role, instance, leader, lastPassAt } = fastify.serviceStatus;
      void reply.header("cache-control", "no-store");
      if (ready) return { ready: true as const, role, instance, leader, lastPassAt };
      return reply.code(503).send({ ready: false as const, role, instance, leader, lastPassAt, reasons });
    },
  );
};

export default plugin;
