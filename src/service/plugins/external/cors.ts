import cors from "@fastify/cors";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";

/** The paths another origin's page may read: the open read API. */
const CROSS_ORIGIN_PREFIX = "/api/";

/**
 * CORS open for the read API (`/api/…`): any origin may GET. Only GET and HEAD: a browser page of another origin cannot
 * send the keyed `POST /api/v1/liquidity-requests` (its preflight, needed for `Authorization` and a JSON body, does
 * not allow POST), and no credentials are ever allowed. Keys are Bearer tokens, never cookies, so no browser sends one
 * on its own; keeping POST same-origin also keeps keys out of third-party pages (docs/keys.md). The dapp (`/app`,
 * `/auth`: pages and JSON behind a session cookie), MCP and the probes send no CORS header: nothing of theirs is for
 * another origin's scripts.
 */
export default fp(
  async function corsPlugin(fastify: FastifyInstance) {
    await fastify.register(cors, {
      delegator: (request: FastifyRequest, callback) => {
        const open = (request.url ?? "").startsWith(CROSS_ORIGIN_PREFIX);
        callback(null, open ? { origin: "*", methods: ["GET", "HEAD"] } : { origin: false });
      },
    });
  },
  { name: "cors" },
);
