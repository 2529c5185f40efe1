import cors from "@fastify/cors";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/** CORS open for the read API: any origin may GET. */
export default fp(
  async function corsPlugin(fastify: FastifyInstance) {
    await fastify.register(cors, { origin: "*", methods: ["GET", "HEAD"] });
  },
  { name: "cors" },
);
