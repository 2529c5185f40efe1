import compress from "@fastify/compress";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/**
 * Which answers are compressed: text (HTML pages, the dapp's script and stylesheet, JSON, the SVG icon). Not an event
 * stream: a compressor would hold its events back (the MCP route writes its own answers and is never compressed).
 */
export const COMPRESSIBLE =
  /^(?:text\/(?!event-stream)|application\/(?:[\w.-]+\+)?json\b|application\/javascript\b|image\/svg\+xml\b)/;

/** Smallest body worth compressing, in bytes (a smaller one goes out as it is). */
export const COMPRESS_THRESHOLD = 1024;

/**
 * Compression of every answer above {@link COMPRESS_THRESHOLD} bytes whose type is {@link COMPRESSIBLE}: Brotli or
 * gzip, as the request's `Accept-Encoding` prefers (nothing else, and nothing without one), with `Vary:
 * accept-encoding`. A 304 or a body already encoded is left alone; caching headers and ETags are kept. Registered
 * before the routes, so it covers every route (`@fastify/compress` hooks each route as it is added).
 */
export default fp(
  async function compressPlugin(fastify: FastifyInstance) {
    await fastify.register(compress, {
      global: true,
      encodings: ["br", "gzip"],
      threshold: COMPRESS_THRESHOLD,
      customTypes: COMPRESSIBLE,
    });
  },
  { name: "compress" },
);
