import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** What a route answers: status (200), headers, body (string or JSON value), delay before answering in ms. */
export interface RouteAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  delayMs?: number;
}
export type Route = (request: { path: string; query: URLSearchParams; count: number }) => RouteAnswer;

/**
 * A real loopback HTTP server answering by path (`/pools`, `/chart/x` …, or a prefix such as `/prices/current/*`),
 * counting requests per path.
 */
export interface RouteServer {
  url: string;
  routes: Map<string, Route>;
  counts: Map<string, number>;
  close(): Promise<void>;
}

export function fixture(name: string): unknown {
  return JSON.parse(readFileSync(join(__dirname, "..", "..", "fixtures", "feeds", name), "utf8"));
}

export async function startRouteServer(routes: Record<string, Route> = {}): Promise<RouteServer> {
  const table = new Map(Object.entries(routes));
  const counts = new Map<string, number>();
  const pending = new Set<NodeJS.Timeout>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const count = (counts.get(url.pathname) ?? 0) + 1;
    counts.set(url.pathname, count);
    // An exact path first, else the longest route ending in `*` whose prefix the path starts with.
    const prefixed = [...table.keys()]
      .filter((key) => key.endsWith("*") && url.pathname.startsWith(key.slice(0, -1)))
      .sort((a, b) => b.length - a.length)[0];
    const route = table.get(url.pathname) ?? (prefixed === undefined ? undefined : table.get(prefixed));
    const answer: RouteAnswer = route
      ? route({ path: url.pathname, query: url.searchParams, count })
      : { status: 404, body: { error: "not found" } };
    const send = () => {
      if (res.destroyed) return;
      const body = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body ?? null);
      res.writeHead(answer.status ?? 200, { "content-type": "application/json", ...answer.headers });
      res.end(body);
    };
    if (answer.delayMs) {
      const timer = setTimeout(() => {
        pending.delete(timer);
        send();
      }, answer.delayMs);
      pending.add(timer);
    } else send();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    routes: table,
    counts,
    async close() {
      for (const timer of pending) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
