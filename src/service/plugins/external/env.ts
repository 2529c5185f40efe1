import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { loadConfig, type ServiceConfig } from "../../../config/loadConfig";

declare module "fastify" {
  interface FastifyInstance {
    config: ServiceConfig;
  }
}

/** Decorates `fastify.config`: the configuration given, or the one read from the environment (env-schema). */
export default fp(
  async function envPlugin(fastify: FastifyInstance, { config }: { config?: ServiceConfig }) {
    fastify.decorate("config", config ?? loadConfig({ env: process.env }));
  },
  { name: "env" },
);
