import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/**
 * Every answer carries `X-Content-Type-Options: nosniff`, so a browser never runs a JSON body (which may
 * echo client input) as a script or a page. Set on the raw response as the request arrives, so that it also covers
 * answers written outside Fastify's reply (`POST /mcp` hands the response to the MCP transport). The router's own
 * errors, raised before any hook, set it in `serverOptions`; pages and dapp assets set it too (src/web/headers.ts);
 * the client error handler writes it on its raw 400/408/431.
 */
export default fp(
  async function securityHeaders(fastify: FastifyInstance) {
    fastify.addHook("onRequest", async function noSniff(_request, reply) {
      reply.raw.setHeader("x-content-type-options", "nosniff");
    });
    // Answers that skip the onRequest hooks (a router error raised before any route is chosen) still pass here.
    fastify.addHook("onSend", async function noSniffOnSend(_request, reply, payload) {
      reply.header("x-content-type-options", "nosniff");
      return payload;
    });
  },
  { name: "security-headers", fastify: "5.x" },
);
