import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { ApiError, ApiErrorCode } from "../../../errors/http";
import { checkRequestOrigin } from "../../../mcp/checkRequestOrigin";
import { createMcpServer } from "../../../mcp/createMcpServer";
import type { McpDeps } from "../../../mcp/deps";

/** A JSON-RPC error without an id: how the SDK's transport answers a refusal before any message is read. */
function jsonRpcRefusal(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply
    .code(status)
    .type("application/json; charset=utf-8")
    .send({ jsonrpc: "2.0", error: { code: -32000, message }, id: null });
}

/** How many `tools/call` of `verify_attestation` a JSON-RPC body (one message or a batch) holds. */
function verifyCalls(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  return messages.filter((message) => {
    const m = message as { method?: unknown; params?: { name?: unknown } } | null;
    return m?.method === "tools/call" && m.params?.name === "verify_attestation";
  }).length;
}

/**
 * `POST /mcp`: the MCP server over Streamable HTTP, stateless (a new server and transport per request, no session;
 * JSON responses), on the service's own readers and attester. It sits under the API's rate limit and 64 KiB body
 * limit; a `verify_attestation` call also counts against the stricter limit of `POST /api/v1/verify`. The `Origin`
 * and `Host` headers are checked against the service's own origin (DNS rebinding: 403). `GET` and `DELETE` answer 405:
 * a stateless server has no stream to resume and no session to end.
 */
const plugin: FastifyPluginAsync = async (fastify) => {
  const { readContext, attesterInfo, config } = fastify;
  const deps: McpDeps = {
    readContext,
    attester: attesterInfo,
    onInternalError: (error, tool) => fastify.log.error({ err: error, tool }, "MCP tool failed"),
  };
  const verifyLimiter =
    config.rateLimit === false || !fastify.hasDecorator("createRateLimit")
      ? null
      : fastify.createRateLimit({ max: config.rateLimit.verifyMax, timeWindow: config.rateLimit.windowMs });

  /** After the rate limit's `onRequest` hook, before the body is read (like the keyed routes' key check). */
  async function checkOrigin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const verdict = checkRequestOrigin({
      origin: request.headers.origin,
      host: request.headers.host,
      publicOrigin: fastify.publicOrigin(),
    });
    if (!verdict.ok) {
      request.log.debug({ origin: request.headers.origin, host: request.headers.host }, verdict.message);
      await jsonRpcRefusal(reply, 403, `Forbidden: ${verdict.message}`);
    }
  }

  async function limitVerifyCalls(request: FastifyRequest): Promise<void> {
    for (let i = verifyLimiter === null ? 0 : verifyCalls(request.body); i > 0; i--) {
      const limit = await verifyLimiter!(request);
      if (!limit.isAllowed && limit.isExceeded) {
        throw new ApiError({
          statusCode: 429,
          code: ApiErrorCode.rateLimited,
          message: `Rate limit of ${limit.max} verifications exceeded; retry in ${limit.ttlInSeconds} s.`,
          extra: { retryAfterMs: limit.ttl },
        });
      }
    }
  }

  fastify.post(
    "/",
    {
      schema: {
        summary: "MCP (Model Context Protocol) over Streamable HTTP, stateless",
        description:
          "JSON-RPC 2.0 messages of the MCP protocol: eleven read-only tools over the same data as this API (docs/mcp.md). Send Accept: application/json, text/event-stream.",
        tags: ["agents"],
      },
      preParsing: checkOrigin,
    },
    async function mcp(request, reply) {
      await limitVerifyCalls(request);
      const server = createMcpServer(deps);
      // Stateless: one server and one transport per request (a reused stateless transport answers an empty 500).
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      // The transport writes the response itself: Fastify must not send one.
      reply.hijack();
      reply.raw.on("close", () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (error) {
        request.log.error({ err: error }, "MCP request failed");
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, { "content-type": "application/json; charset=utf-8" });
          reply.raw.end(
            JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message: "Internal error" }, id: null }),
          );
        }
      }
    },
  );

  for (const method of ["GET", "DELETE"] as const) {
    fastify.route({
      method,
      url: "/",
      schema: { hide: true },
      handler: async function methodNotAllowed(_request, reply) {
        reply.header("allow", "POST");
        return jsonRpcRefusal(reply, 405, "Method not allowed: this MCP server is stateless; POST JSON-RPC messages.");
      },
    });
  }
};

export default plugin;
