import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { ApiError, ApiErrorCode } from "../../../errors/http";
import { checkRequestOrigin } from "../../../mcp/checkRequestOrigin";
import { createMcpServer } from "../../../mcp/createMcpServer";
import type { McpDeps } from "../../../mcp/deps";

/** JSON-RPC 2.0 error codes answered by the route itself, before the SDK reads a message. */
const JSON_RPC_PARSE_ERROR = -32700;
const JSON_RPC_INVALID_REQUEST = -32600;
const JSON_RPC_INVALID_PARAMS = -32602;

/** The methods whose `params` carry a name and an `arguments` object. */
const NAMED_CALLS: ReadonlySet<string> = new Set(["tools/call", "prompts/get"]);

/**
 * Why a `tools/call` or `prompts/get` message's params are not the protocol's shape (`name` a string, `arguments` an
 * object when present), or null. The SDK answers such a message with -32603 (an internal error); the caller sent
 * invalid params, which JSON-RPC answers -32602.
 */
export function invalidCallParams(body: unknown): string | null {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return null;
  const { method, params } = body as { method?: unknown; params?: unknown };
  if (typeof method !== "string" || !NAMED_CALLS.has(method)) return null;
  if (params === null || typeof params !== "object" || Array.isArray(params))
    return `${method} needs params: an object`;
  const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
  if (typeof name !== "string") return `${method} needs params.name: a string`;
  if (args !== undefined && (args === null || typeof args !== "object" || Array.isArray(args))) {
    return `${method} params.arguments must be an object (name → value)`;
  }
  return null;
}
/** The SDK's code for a transport-level refusal (wrong method, origin). */
const JSON_RPC_SERVER_ERROR = -32000;

/** A JSON-RPC error without an id: how the SDK's transport answers a refusal before any message is read. */
function jsonRpcRefusal(
  reply: FastifyReply,
  status: number,
  message: string,
  code: number = JSON_RPC_SERVER_ERROR,
): FastifyReply {
  return reply
    .code(status)
    .type("application/json; charset=utf-8")
    .send({ jsonrpc: "2.0", error: { code, message }, id: null });
}

/** Fastify's errors for a JSON body that is empty or not JSON (the API answers them as INVALID_JSON). */
const NOT_JSON_CODES: ReadonlySet<string | undefined> = new Set([
  "FST_ERR_CTP_EMPTY_JSON_BODY",
  "FST_ERR_CTP_INVALID_JSON_BODY",
]);

/** Whether a (single, not batched) JSON-RPC message is a `tools/call` of `verify_attestation`. */
function isVerifyCall(body: unknown): boolean {
  const m = body as { method?: unknown; params?: { name?: unknown } } | null;
  return m?.method === "tools/call" && m.params?.name === "verify_attestation";
}

/**
 * `POST /mcp`: the MCP server over Streamable HTTP, stateless (a new server and transport per request, no session;
 * JSON responses), on the service's own readers and attester. It sits under the API's rate limit and 64 KiB body
 * limit; a `verify_attestation` call also counts against the stricter limit of `POST /api/v1/verify`. The `Origin`
 * and `Host` headers are checked against the service's own origin (DNS rebinding: 403). `GET` and `DELETE` answer 405:
 * a stateless server has no stream to resume and no session to end.
 *
 * One POST is one JSON-RPC message: a batch (a JSON array) is refused with -32600 before any tool runs (the 2025-06-18
 * transport has no batches, and a batch would turn one request of the rate limit into a hundred tool calls). A body
 * that is not JSON is a JSON-RPC parse error (-32700), not the API's INVALID_JSON body. The API's other refusals
 * (413 body too large, 429 rate limited) keep the API's error body.
 */
const plugin: FastifyPluginAsync = async (fastify) => {
  const { readContext, config } = fastify;
  const onInternalError: McpDeps["onInternalError"] = (error, tool) =>
    fastify.log.error({ err: error, tool }, "MCP tool failed");
  const verifyLimiter =
    config.rateLimit === false || !fastify.hasDecorator("createRateLimit")
      ? null
      : fastify.createRateLimit({ max: config.rateLimit.verifyMax, timeWindow: config.rateLimit.windowMs });

  // This folder's own error handler (the plugin is encapsulated): a body that does not parse is answered the JSON-RPC
  // way; everything else goes to the API's handler, as before.
  const apiErrorHandler = fastify.errorHandler;
  fastify.setErrorHandler(function handleMcpError(error, request, reply) {
    if (NOT_JSON_CODES.has((error as { code?: string }).code)) {
      request.log.debug({ code: (error as { code?: string }).code }, "MCP body is not JSON");
      return jsonRpcRefusal(reply, 400, "Parse error: the body is not JSON.", JSON_RPC_PARSE_ERROR);
    }
    return apiErrorHandler.call(this, error, request, reply);
  });

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
    if (verifyLimiter !== null && isVerifyCall(request.body)) {
      const limit = await verifyLimiter(request);
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
      if (Array.isArray(request.body)) {
        request.log.debug({ messages: request.body.length }, "MCP batch refused");
        return jsonRpcRefusal(
          reply,
          400,
          "Invalid Request: JSON-RPC batches are not supported; send one message per POST.",
          JSON_RPC_INVALID_REQUEST,
        );
      }
      const invalid = invalidCallParams(request.body);
      if (invalid !== null) {
        const id = (request.body as { id?: unknown }).id;
        return reply
          .code(200)
          .type("application/json; charset=utf-8")
          .send({
            jsonrpc: "2.0",
            error: { code: JSON_RPC_INVALID_PARAMS, message: `Invalid params: ${invalid}.` },
            id: typeof id === "string" || typeof id === "number" ? id : null,
          });
      }
      await limitVerifyCalls(request);
      // Before the transport takes the response: an attester not known yet is the API's 503 ATTESTER_UNKNOWN.
      const deps: McpDeps = { readContext, attester: await fastify.attester(), onInternalError };
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
