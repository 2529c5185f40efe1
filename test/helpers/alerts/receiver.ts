import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the receiver got. */
export type Received = { headers: IncomingHttpHeaders; body: string; url: string };

/** What the receiver does with a request: answer a status (after a delay), or never answer. */
export type Answer = { status: number; delayMs?: number; headers?: Record<string, string>; body?: string } | "hang";

/** A real HTTP server on 127.0.0.1 (a webhook target over loopback), recording every request. */
export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** The requests' parsed bodies. */
  bodies(): { id: number; kind: string; type: string; [key: string]: unknown }[];
  close(): Promise<void>;
}

/**
 * Starts a receiver on a free loopback port. `answer(request, n)` decides each answer (n counts from 0); default 200.
 */
export async function startReceiver(
  answer: (request: Received, n: number) => Answer = () => ({ status: 200 }),
): Promise<Receiver> {
  const received: Received[] = [];
  const open = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), url: req.url ?? "" };
      const n = received.length;
      received.push(request);
      const reply = answer(request, n);
      if (reply === "hang") {
        open.add(res);
        return;
      }
      const send = () => {
        res.writeHead(reply.status, { "content-type": "text/plain", ...reply.headers });
        res.end(reply.body ?? "ok");
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    bodies: () => received.map((r) => JSON.parse(r.body)),
    close: async () => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls `condition` every 20 ms until it holds (or fails after `ms`). */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
