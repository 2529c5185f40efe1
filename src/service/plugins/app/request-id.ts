import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/** The header a request id comes in and goes out on. */
export const REQUEST_ID_HEADER = "x-request-id";

/** An incoming id is kept when it is 1 to 128 printable ASCII characters (space to `~`); else one is made. */
const VALID_REQUEST_ID = /^[\x20-\x7e]{1,128}$/;

/**
 * Fastify's `genReqId` (serverOptions, with `requestIdHeader: false` so that Fastify never takes the header
 * unchecked): the caller's `x-request-id` when valid, else a new random UUID. Fastify logs it as `reqId` on every line
 * of the request.
 */
export function requestIdOf(raw: IncomingMessage): string {
  const given = raw.headers[REQUEST_ID_HEADER];
  return typeof given === "string" && VALID_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Every answer carries the request's id in `x-request-id`: set first thing on `onRequest`, on the raw
 * response (as the nosniff header is: `POST /mcp` answers outside Fastify's reply), so that a 404, a 429 of the rate
 * limit and an error answer have it too. Fastify's router errors skip the hooks: serverOptions' `frameworkErrors` sets
 * it there.
 */
export default fp(
  async function requestId(fastify: FastifyInstance) {
    fastify.addHook("onRequest", async function echoRequestId(request, reply) {
      reply.raw.setHeader(REQUEST_ID_HEADER, request.id);
    });
  },
  { name: "request-id", fastify: "5.x" },
);
