import cors from "@fastify/cors";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/**
 * CORS open for the read API: any origin may GET. Only GET and HEAD: a browser page of another origin cannot send the
 * keyed `POST /api/v1/liquidity-requests` (its preflight, needed for `Authorization` and a JSON body, does not allow
 * POST), and no credentials are ever allowed. Keys are Bearer tokens, never cookies, so no browser sends one on its
 * own; keeping POST same-origin also keeps keys out of third-party pages (docs/keys.md).
 */
export default fp(
  async function corsPlugin(fastify: FastifyInstance) {
    await fastify.register(cors, { origin: "*", methods: ["GET", "HEAD"] });
  },
  { name: "cors" },
);
