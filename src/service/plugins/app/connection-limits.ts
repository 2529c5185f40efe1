import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/**
 * The client a connection counts against. Today the socket's remote address: there is no `TRUST_PROXY` yet. When it
 * comes, a trusted proxy's connections are its many clients' and the cap must key them otherwise (or be switched off
 * with `MAX_CONNECTIONS_PER_CLIENT=0` and enforced by the proxy): this function is the one place to change.
 */
export function connectionClient(socket: Socket): string {
  return socket.remoteAddress ?? "unknown";
}

export type ConnectionLimitsOptions = {
  /** `MAX_CONNECTIONS_PER_CLIENT`; `false` = no cap. */
  maxPerClient: number | false;
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
 * DESIGN §13 on the Node server under Fastify. (1) One client address holds at most `maxPerClient` open connections:
 * counted on the server's `connection` event, released on the socket's `close`; one more is destroyed at once, before
 * a byte is read, so a flood of slow sockets from one address (each also bounded by `REQUEST_TIMEOUT_S`) cannot use up
 * the process's file descriptors and keep another client out. (2) A 429 whose request body was not read closes the
 * connection (`Connection: close`; Node ends the socket after the answer) instead of reading the rest of a slow body.
 */
export default fp(
  async function connectionLimits(fastify: FastifyInstance, options: ConnectionLimitsOptions) {
    const clientOf = options.clientOf ?? connectionClient;
    const open = new Map<string, number>();
    let refused = 0;
    fastify.decorate("connectionCounts", { get: (client: string) => open.get(client) ?? 0, refused: () => refused });

    const { maxPerClient } = options;
    if (maxPerClient !== false) {
      fastify.server.on("connection", function capPerClient(socket: Socket) {
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
