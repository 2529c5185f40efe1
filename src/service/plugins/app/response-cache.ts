import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { httpStatusOf } from "../../errorBodies";

declare module "fastify" {
  interface FastifyInstance {
    responseCache: ResponseCache;
  }
}

/** Built response bodies, serialized once and reused until `ttlMs` passes or a write invalidates them. */
export type ResponseCache = {
  /**
   * The body under `key`, serialized; built with `build` on a miss. A 4xx error the reader throws (unknown pool,
   * no attestation yet) is cached like a body and thrown again on a hit.
   */
  json(key: string, build: () => Promise<unknown>): Promise<string>;
  /** Drops every cached body (the main job calls it after each ingestion pass). */
  invalidate(): void;
};

/** Keys come from request paths: the map is bounded so that random ids cannot grow it without limit. */
const MAX_CACHE_ENTRIES = 10_000;

type Entry = { at: number; json?: string; error?: Error };

/** Creates a {@link ResponseCache}; `ttlMs` 0 turns caching off. */
export function createResponseCache({ ttlMs }: { ttlMs: number }): ResponseCache {
  const cache = new Map<string, Entry>();
  // Bumped by invalidate(): a body built from reads that started before it is not cached.
  let generation = 0;
  return {
    async json(key, build) {
      let entry = cache.get(key);
      if (entry === undefined || Date.now() - entry.at >= ttlMs) {
        const started = generation;
        try {
          entry = { at: Date.now(), json: JSON.stringify(await build()) };
        } catch (error) {
          if (!(error instanceof Error) || httpStatusOf(error) >= 500) throw error;
          entry = { at: Date.now(), error };
        }
        if (ttlMs > 0 && started === generation) {
          if (cache.size >= MAX_CACHE_ENTRIES) cache.clear();
          cache.set(key, entry);
        }
      }
      if (entry.error) throw entry.error;
      return entry.json as string;
    },
    invalidate() {
      generation++;
      cache.clear();
    },
  };
}

/** Decorates `fastify.responseCache`. */
export default fp(
  async function responseCachePlugin(fastify: FastifyInstance, options: { ttlMs: number }) {
    fastify.decorate("responseCache", createResponseCache(options));
  },
  { name: "response-cache" },
);
