import { BlockList, isIPv4, type Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { TrustProxyConfig } from "../../../config/loadConfig";
import { clientAddressKey } from "../../clientAddress";

/**
 * The client a connection counts against: the socket's remote address. The cap acts on the `connection` event, before
 * a byte of a request (and so of `X-Forwarded-For`) is read: it can only know the socket's address. A trusted proxy's
 * connections carry many clients and are not capped at all ({@link isTrustedProxy}); the proxy caps its clients.
 */
export function connectionClient(socket: Socket): string {
  return socket.remoteAddress === undefined ? "unknown" : clientAddressKey(socket.remoteAddress);
}

/** An IPv4 client on a dual-stack socket shows as `::ffff:a.b.c.d`: the IPv4 address, as TRUST_PROXY names it. */
function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped === null ? address : mapped[1];
}

/**
 * Whether a connection's remote address is a proxy TRUST_PROXY trusts (as Fastify's `trustProxy` reads it): none when
 * unset (false or 0), every address for a hop count (Fastify then trusts that many hops whatever their address),
 * else the listed addresses and CIDRs.
 */
export function isTrustedProxy(trustProxy: TrustProxyConfig): (address: string) => boolean {
  if (trustProxy === false || trustProxy === 0) return () => false;
  if (typeof trustProxy === "number") return () => true;
  const list = new BlockList();
  for (const entry of trustProxy) {
    const [address, bits] = entry.split("/");
    const family = isIPv4(address) ? "ipv4" : "ipv6";
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return function listed(address: string): boolean {
    const plain = plainAddress(address);
    return list.check(plain, isIPv4(plain) ? "ipv4" : "ipv6");
  };
}

export type ConnectionLimitsOptions = {
  /** `MAX_CONNECTIONS_PER_CLIENT`; `false` = no cap. */
  maxPerClient: number | false;
  /** `TRUST_PROXY`: connections from a trusted proxy are not capped ({@link isTrustedProxy}). Default: none. */
  trustProxy?: TrustProxyConfig;
  /** Who a connection belongs to; {@link connectionClient} by default. */
  clientOf?: (socket: Socket) => string;
};

/** The open connections of each client, as the cap counts them (for tests and diagnostics). */
export interface ConnectionCounts {
  get(client: string): number;
  /** Connections closed at once because their client was at the cap, since the server started. */
  refused(): number;
}

declare module "fastify" {
  interface FastifyInstance {
    connectionCounts: ConnectionCounts;
  }
}

/**
 * The connection limits (docs/security.md#connections-and-slow-clients) on the Node server under Fastify. (1) One
 * client address holds at most `maxPerClient` open connections: counted on the server's `connection` event, released on
 * the socket's `close`; one more is destroyed at once, before a byte is read, so a flood of slow sockets from one
 * address (each also bounded by `REQUEST_TIMEOUT_S`) cannot use up the process's file descriptors and keep another
 * client out. A trusted proxy's connections (`TRUST_PROXY`) are not counted: they are many clients', and the proxy in
 * front caps those (docs/security.md). The probes cannot be exempt from the cap (it acts before the request is read):
 * the orchestrator's address is one client like any other. (2) A 429 whose request body was not read closes the
 * connection (`Connection: close`; Node ends the socket after the answer) instead of reading the rest of a slow body.
 */
export default fp(
  async function connectionLimits(fastify: FastifyInstance, options: ConnectionLimitsOptions) {
    const clientOf = options.clientOf ?? connectionClient;
    const fromProxy = isTrustedProxy(options.trustProxy ?? false);
    const open = new Map<string, number>();
    let refused = 0;
    fastify.decorate("connectionCounts", { get: (client: string) => open.get(client) ?? 0, refused: () => refused });

    const { maxPerClient } = options;
    if (maxPerClient !== false) {
      fastify.server.on("connection", function capPerClient(socket: Socket) {
        if (socket.remoteAddress !== undefined && fromProxy(socket.remoteAddress)) return;
        const client = clientOf(socket);
        const count = open.get(client) ?? 0;
        if (count >= maxPerClient) {
          refused++;
          socket.destroy();
          return;
        }
        open.set(client, count + 1);
        socket.once("close", () => {
          const left = (open.get(client) ?? 1) - 1;
          if (left <= 0) open.delete(client);
          else open.set(client, left);
        });
      });
    }

    fastify.addHook("onSend", async function closeAfterRefusal(request, reply, payload) {
      // `complete` is true once the whole request (its body too) has been received.
      if (reply.statusCode === 429 && !request.raw.complete) reply.header("connection", "close");
      return payload;
    });
  },
  { name: "connection-limits", fastify: "5.x" },
);
