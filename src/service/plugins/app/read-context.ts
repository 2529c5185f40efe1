import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { ReadContext } from "../../../read/context";

declare module "fastify" {
  interface FastifyInstance {
    /** What the readers of `src/read` are called with: the store, the freshness window and the clock. */
    readContext: ReadContext;
  }
}

/** Decorates `fastify.readContext`: routes call the shared readers with it (the MCP tools and pages build their own). */
export default fp(
  async function readContextPlugin(fastify: FastifyInstance, context: ReadContext) {
    fastify.decorate("readContext", { db: context.db, freshnessWindowS: context.freshnessWindowS, now: context.now });
  },
  { name: "read-context" },
);
