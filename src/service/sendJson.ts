import type { FastifyReply } from "fastify";

/**
 * Sends a body that is already JSON text (a cached, pre-serialized response). With a JSON content type, Fastify
 * sends a string as is; the route's response schema still documents its shape.
 */
export function sendJson(reply: FastifyReply, json: string): FastifyReply {
  return reply.type("application/json; charset=utf-8").send(json);
}
