import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

declare module "fastify" {
  interface FastifyInstance {
    /**
     * The service's own origin: `PUBLIC_ORIGIN`, or `http://<HOST>:<port>` of the listening socket. Never taken from a
     * request's `Host` header (DNS rebinding).
     */
    publicOrigin(): string;
  }
}

/** Formats the origin of a listening socket (`[::1]` for IPv6 hosts). */
export function socketOrigin(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** Decorates `fastify.publicOrigin()` (see the declaration above). */
export default fp(
  async function publicOriginPlugin(fastify: FastifyInstance, options: { publicOrigin: string | null; host: string }) {
    fastify.decorate("publicOrigin", function publicOrigin(): string {
      if (options.publicOrigin !== null) return options.publicOrigin;
      const address = fastify.server.address() as AddressInfo | null;
      return socketOrigin(options.host, address?.port ?? 0);
    });
  },
  { name: "public-origin" },
);
