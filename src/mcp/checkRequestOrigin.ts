/** Host names that reach a server only from its own machine. */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);
/** Listen addresses that name no host (`HOST=0.0.0.0`): the allowed `Host` cannot be known. */
const WILDCARD = new Set(["0.0.0.0", "[::]"]);

export type CheckRequestOriginParameters = {
  /** The request's `Origin` header (absent for non-browser clients). */
  origin: string | undefined;
  /** The request's `Host` header. */
  host: string | undefined;
  /** The service's own origin (`PUBLIC_ORIGIN`, or `http://<HOST>:<port>`; never taken from a request). */
  publicOrigin: string;
};
export type CheckRequestOriginReturnType = { ok: true } | { ok: false; message: string };

/**
 * The DNS-rebinding checks the MCP specification asks of a Streamable HTTP server (and the SDK's Express helper does,
 * which does not exist for Fastify). `Origin`: absent is allowed (agents and SDK clients send none); present, it must
 * be the service's own origin exactly. `Host`: when the service's origin is a loopback name, the `Host` must be a
 * loopback name too (any port); when it is a public name, that name or a loopback one (a proxy on the same machine);
 * when it is a wildcard listen address, the host cannot be known and is not checked (the Origin check still is).
 *
 * @param {@link CheckRequestOriginParameters}
 * @returns `{ ok: true }`, or `{ ok: false, message }` saying which header is refused (answer 403).
 * @example
 * import { checkRequestOrigin } from "./mcp/checkRequestOrigin";
 * checkRequestOrigin({ origin: "https://evil.example", host: "127.0.0.1:8080", publicOrigin: "http://127.0.0.1:8080" });
 * // { ok: false, message: "Origin https://evil.example is not this service's origin (http://127.0.0.1:8080)." }
 */
export function checkRequestOrigin({
  origin,
  host,
  publicOrigin,
}: CheckRequestOriginParameters): CheckRequestOriginReturnType {
  const own = new URL(publicOrigin);
  if (origin !== undefined && origin !== own.origin) {
    return { ok: false, message: `Origin ${origin.slice(0, 200)} is not this service's origin (${own.origin}).` };
  }
  if (WILDCARD.has(own.hostname)) return { ok: true };
  const hostname = hostnameOf(host) ?? "";
  const allowed = LOOPBACK.has(hostname) || (!LOOPBACK.has(own.hostname) && hostname === own.hostname);
  if (!allowed)
    return { ok: false, message: `Host ${String(host).slice(0, 200)} is not this service's host (${own.host}).` };
  return { ok: true };
}

/** A `Host` header: a name or IPv4 address, or an IPv6 address in brackets, then an optional port. */
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:[0-9]{1,5})?$/;

/** The host name of a `Host` header (IPv6 in brackets, lower case), or null when it is absent or malformed. */
function hostnameOf(host: string | undefined): string | null {
  return HOST.exec((host ?? "").toLowerCase())?.[1] ?? null;
}
