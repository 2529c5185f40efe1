import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * How the proxy answers a path instead of forwarding it unchanged:
 * - `rewrite`: forwards, then answers the upstream JSON body as `body(json, url)` returns it (status 200);
 * - `status`: answers `status` with `headers` (e.g. a 302 `Location`, a 429 `Retry-After`) and `body`, never forwards;
 * - `oversize`: answers 200 with a body of `bytes` bytes, streamed in 64 KiB chunks without a `Content-Length`.
 */
export type ProxyFault =
  | { kind: "rewrite"; body: (json: unknown, url: URL) => unknown }
  | { kind: "status"; status: number; headers?: Record<string, string>; body?: string }
  | { kind: "oversize"; bytes: number };

/** A real loopback HTTP proxy in front of a feed server, applying a fault per path prefix. */
export interface FaultyFeedProxy {
  /** `http://127.0.0.1:<port>`: the upstream's paths under the proxy's origin. */
  url: string;
  /** The upstream's feed URLs rebased on the proxy. */
  urls: { defillamaYieldsUrl: string; defillamaApiUrl: string; merklApiUrl: string };
  /** Applies `fault` to every path starting with `prefix` (e.g. `/yields/pools`); null removes it. */
  setFault(prefix: string, fault: ProxyFault | null): void;
  clearFaults(): void;
  /** Requests received, by path. */
  requests: Map<string, number>;
  close(): Promise<void>;
}

/**
 * Starts a fault-injecting proxy on 127.0.0.1 (a free port) in front of `target` (the demo feed server's origin,
 * `http://127.0.0.1:<port>`), forwarding GETs with their path and query. The longest matching prefix's fault applies.
 *
 * @example
 * const proxy = await startFaultyFeedProxy({ target: "http://127.0.0.1:9000" });
 * proxy.setFault("/yields/pools", { kind: "rewrite", body: (json) => ({ ...(json as object), data: [] }) });
 */
export async function startFaultyFeedProxy(parameters: { target: string }): Promise<FaultyFeedProxy> {
  const target = parameters.target.replace(/\/+$/, "");
  const faults = new Map<string, ProxyFault>();
  const requests = new Map<string, number>();
  const faultOf = (path: string) =>
    [...faults.entries()]
      .filter(([prefix]) => path.startsWith(prefix))
      .sort((a, b) => b[0].length - a[0].length)[0]?.[1];

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    requests.set(url.pathname, (requests.get(url.pathname) ?? 0) + 1);
    const fault = faultOf(url.pathname);
    if (fault?.kind === "status") {
      res.writeHead(fault.status, { "content-type": "application/json", ...fault.headers });
      res.end(fault.body ?? "");
      return;
    }
    if (fault?.kind === "oversize") {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let left = fault.bytes;
      const pump = () => {
        while (left > 0 && !res.destroyed) {
          const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
          left -= piece.length;
          if (!res.write(piece)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("error", () => undefined);
      pump();
      return;
    }
    const upstream = await fetch(`${target}${url.pathname}${url.search}`, { redirect: "manual" });
    let body = await upstream.text();
    let status = upstream.status;
    if (fault?.kind === "rewrite" && upstream.ok) {
      body = JSON.stringify(fault.body(JSON.parse(body), url));
      status = 200;
    }
    res.writeHead(status, { "content-type": upstream.headers.get("content-type") ?? "application/json" });
    res.end(body);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`proxy: ${(error as Error).message}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    urls: { defillamaYieldsUrl: `${url}/yields`, defillamaApiUrl: `${url}/api`, merklApiUrl: `${url}/merkl` },
    setFault(prefix, fault) {
      if (fault === null) faults.delete(prefix);
      else faults.set(prefix, fault);
    },
    clearFaults() {
      faults.clear();
    },
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
