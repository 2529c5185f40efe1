import type { ZodType, ZodTypeDef } from "zod";
import { FeedRequestError, FeedValidationError } from "../../errors/feeds";
import { processHostBlocks, retryAfterMs, type HostBlocks } from "./hostBlocks";
import { readBodyCapped } from "../../net/readBody";

/** Default largest feed body read (`FEED_MAX_BYTES`): 64 MiB. */
export const DEFAULT_FEED_MAX_BYTES = 64 * 1024 * 1024;

/** Retry and timeout policy shared by every feed adapter. */
export interface FeedRequestOptions {
  /** Per-attempt timeout covering connect, headers and body, in ms. Default 15000. */
  timeoutMs?: number;
  /** Retries after the first attempt (network error, timeout, HTTP 5xx or 429). Never on other 4xx. Default 2. */
  retries?: number;
  /** First backoff in ms; doubles each retry (250, 500, 1000 …). Default 250. */
  backoffMs?: number;
  /** Receives one line per retry and per rejection. */
  log?: (line: string) => void;
  /** Largest body read, in bytes (`FEED_MAX_BYTES`); a longer one is refused while it streams. Default 64 MiB. */
  maxBytes?: number;
  /** Hosts waiting out a `Retry-After`; default the process-wide ones. */
  hostBlocks?: HostBlocks;
}

/** Parameters of {@link fetchJson}. */
export interface FetchJsonParameters<T> extends FeedRequestOptions {
  /** Feed name for errors and logs, e.g. `defillama-yields`. */
  source: string;
  url: string;
  /**
   * The response's documented envelope (rows typed `unknown`, checked one by one afterwards with `checkRows`). A body
   * that does not match is rejected whole.
   */
  schema: ZodType<T, ZodTypeDef, unknown>;
}
export type FetchJsonErrorType = FeedRequestError | FeedValidationError;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * GETs a JSON feed with a timeout per attempt (AbortSignal), bounded retries with exponential backoff on network
 * errors, timeouts, 5xx and 429 (never on other 4xx), and validates the body against a zod schema of its envelope. A
 * body that is not JSON or whose envelope fails validation is rejected whole (FeedValidationError).
 *
 * HTTP rules: a redirect is never followed (the request fails naming its `Location`); a 429 or 503 with a
 * `Retry-After` (seconds or HTTP-date, at most 10 minutes) blocks every request to that origin until it passes and
 * fails with "rate limited until <ISO time>"; a body above `maxBytes` is refused while it streams (no more than the cap
 * is held), naming the cap. None of these is retried.
 *
 * @param {@link FetchJsonParameters}
 * @returns the validated body.
 * @example
 * import { z } from "zod";
 * import { fetchJson } from "./ingest/feeds/fetchJson";
 * const body = await fetchJson({ source: "demo", url: "http://127.0.0.1:9000/x", schema: z.object({ a: z.number() }) });
 */
export async function fetchJson<T>(parameters: FetchJsonParameters<T>): Promise<T> {
  const { source, url, schema, timeoutMs = 15_000, retries = 2, backoffMs = 250, log } = parameters;
  const { maxBytes = DEFAULT_FEED_MAX_BYTES, hostBlocks = processHostBlocks } = parameters;
  const origin = new URL(url).origin;
  let attempt = 0;
  for (;;) {
    attempt++;
    let status: number | null = null;
    let text: string;
    const blockedUntil = hostBlocks.until(origin, Date.now());
    if (blockedUntil !== undefined) {
      const reason = `rate limited until ${new Date(blockedUntil).toISOString()} (${origin} asked to wait)`;
      throw new FeedRequestError({ source, url, status: null, attempts: attempt - 1, reason });
    }
    try {
      const response = await fetch(url, {
        headers: { accept: "application/json" },
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.status;
      if (status >= 300 && status < 400) {
        await response.body?.cancel().catch(() => undefined);
        const location = response.headers.get("location");
        const reason = `redirect (HTTP ${status}) to ${location === null ? "no Location" : JSON.stringify(location)} not followed`;
        throw new FeedRequestError({ source, url, status, attempts: attempt, reason });
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        const wait =
          status === 429 || status === 503 ? retryAfterMs(response.headers.get("retry-after"), Date.now()) : null;
        if (wait !== null) {
          const until = Date.now() + wait;
          hostBlocks.block(origin, until);
          const reason = `rate limited until ${new Date(until).toISOString()} (HTTP ${status}, Retry-After ${response.headers.get("retry-after")})`;
          log?.(`${source}: ${reason} from ${url}`);
          throw new FeedRequestError({ source, url, status, attempts: attempt, reason });
        }
        const retryable = status >= 500 || status === 429;
        if (!retryable || attempt > retries) {
          throw new FeedRequestError({ source, url, status, attempts: attempt, reason: `HTTP ${status}` });
        }
        log?.(`${source}: HTTP ${status} from ${url}, retry ${attempt}/${retries}`);
        await sleep(backoffMs * 2 ** (attempt - 1));
        continue;
      }
      const body = await readBodyCapped(response, maxBytes);
      if (body === null) {
        const reason = `body above FEED_MAX_BYTES (${maxBytes} bytes), refused`;
        throw new FeedRequestError({ source, url, status, attempts: attempt, reason });
      }
      text = body;
    } catch (error) {
      if (error instanceof FeedRequestError) throw error;
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      const reason = timedOut ? `timed out after ${timeoutMs} ms` : `network error (${(error as Error).message})`;
      if (attempt > retries)
        throw new FeedRequestError({ source, url, status, attempts: attempt, reason, cause: error });
      log?.(`${source}: ${reason} for ${url}, retry ${attempt}/${retries}`);
      await sleep(backoffMs * 2 ** (attempt - 1));
      continue;
    }

    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const error = new FeedValidationError({
        source,
        url,
        issues: [`body is not JSON (starts ${JSON.stringify(text.slice(0, 40))})`],
      });
      log?.(`${source}: rejected: ${error.issues[0]}`);
      throw error;
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`);
      log?.(`${source}: rejected ${url}: ${issues.slice(0, 3).join("; ")}`);
      throw new FeedValidationError({ source, url, issues });
    }
    return parsed.data;
  }
}

/** Joins a base URL (with or without a trailing slash, possibly with a path) and a path. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}
