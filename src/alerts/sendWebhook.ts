import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { BaseError } from "@attestation-registry/sdk/errors";
import { checkAlertTarget, type AlertTargetResolver } from "./checkAlertTarget";

export type SendWebhookParameters = {
  url: string;
  headers: Record<string, string>;
  body: string;
  allowPrivateTargets: boolean;
  resolve?: AlertTargetResolver;
  /** Cap on the whole attempt: resolving, connecting, sending and the response headers. */
  timeoutMs: number;
  /** Cap on the response body read (the rest is dropped with the connection). */
  maxResponseBytes: number;
  /** Aborts the attempt (the worker stopping). */
  signal?: AbortSignal;
};
/** What one attempt gave: `ok` for a 2xx; otherwise the status (if any) and a one-line error. */
export type SendWebhookReturnType = { ok: boolean; statusCode: number | null; error: string | null };

const USER_AGENT = "attestation-service-alerts/1";

/**
 * Sends one webhook: checks the target again (scheme, spelling, and every address the name resolves to NOW), then
 * POSTs to the checked address and no other: the connection's DNS lookup is replaced by one that returns it, so the
 * name cannot be re-resolved elsewhere between the check and the connect; TLS still verifies the certificate against
 * the host name. Redirects are never followed (a 3xx is a failed attempt), the attempt has a time cap, and at most
 * `maxResponseBytes` of the answer are read. Never throws: every failure is a result.
 *
 * @param {@link SendWebhookParameters}
 * @returns {@link SendWebhookReturnType}
 */
export async function sendWebhook(parameters: SendWebhookParameters): Promise<SendWebhookReturnType> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, parameters.timeoutMs);
  const onAbort = () => controller.abort();
  parameters.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const target = await abortable(
      checkAlertTarget({
        url: parameters.url,
        allowPrivateTargets: parameters.allowPrivateTargets,
        resolve: parameters.resolve,
      }),
      controller.signal,
    );
    const statusCode = await post({ ...parameters, target, signal: controller.signal });
    if (statusCode >= 200 && statusCode < 300) return { ok: true, statusCode, error: null };
    const what = statusCode >= 300 && statusCode < 400 ? "a redirect, not followed" : "not a 2xx";
    return { ok: false, statusCode, error: `HTTP ${statusCode} (${what})` };
  } catch (error) {
    const message = timedOut
      ? `no answer within ${parameters.timeoutMs} ms`
      : parameters.signal?.aborted
        ? "aborted: the worker is stopping"
        : error instanceof BaseError
          ? error.shortMessage
          : oneLine(error);
    return { ok: false, statusCode: null, error: message };
  } finally {
    clearTimeout(timer);
    parameters.signal?.removeEventListener("abort", onAbort);
  }
}

/** POSTs the body to the pinned address; resolves with the status once the headers are in. */
function post(
  parameters: SendWebhookParameters & { target: { url: URL; address: string; family: 4 | 6 }; signal: AbortSignal },
): Promise<number> {
  const { target, body, headers, maxResponseBytes, signal } = parameters;
  const client = target.url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(target.url, {
      method: "POST",
      headers: { ...headers, "user-agent": USER_AGENT, "content-length": String(Buffer.byteLength(body)) },
      agent: false,
      lookup: pinnedLookup(target.address, target.family),
      signal,
    });
    request.on("error", reject);
    request.once("response", (response) => {
      resolve(response.statusCode ?? 0);
      // Nobody needs the answer's body: read at most maxResponseBytes of it, for at most timeoutMs, then drop it.
      let received = 0;
      const drain = setTimeout(() => response.destroy(), parameters.timeoutMs).unref();
      response.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received > maxResponseBytes) response.destroy();
      });
      response.once("close", () => clearTimeout(drain));
      response.on("error", () => undefined);
    });
    request.end(body);
  });
}

/** A `lookup` that answers every query with the one checked address (both the single and the `all` form). */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname: string, options: unknown, callback: unknown) => {
    const done = (typeof options === "function" ? options : callback) as (...args: unknown[]) => void;
    if (typeof options === "object" && options !== null && (options as { all?: boolean }).all) {
      done(null, [{ address, family }]);
    } else {
      done(null, address, family);
    }
  };
}

/** Rejects when `signal` aborts first. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error("aborted"));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error("aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function oneLine(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const line = `${typeof code === "string" ? `${code}: ` : ""}${message}`.split("\n")[0];
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}
