/**
 * Hosts that asked us to wait (HTTP 429 or 503 with `Retry-After`): no feed request goes to such a host until the time
 * it named has passed. Keyed by origin (`https://yields.llama.fi`), process-wide by default; a test passes its own or
 * clears this one.
 */
export interface HostBlocks {
  /** Until when (ms since the epoch) requests to `origin` wait, or undefined when they may go now. */
  until(origin: string, nowMs: number): number | undefined;
  /** Blocks `origin` until `untilMs` (a later block never shortened by an earlier one). */
  block(origin: string, untilMs: number): void;
  clear(): void;
}

/** Longest wait a `Retry-After` can impose: 10 minutes. */
export const MAX_RETRY_AFTER_MS = 600_000;

/** A fresh, empty set of host blocks. */
export function createHostBlocks(): HostBlocks {
  const blocks = new Map<string, number>();
  return {
    until(origin, nowMs) {
      const until = blocks.get(origin);
      if (until === undefined) return undefined;
      if (until <= nowMs) {
        blocks.delete(origin);
        return undefined;
      }
      return until;
    },
    block(origin, untilMs) {
      blocks.set(origin, Math.max(untilMs, blocks.get(origin) ?? 0));
    },
    clear() {
      blocks.clear();
    },
  };
}

/** The process-wide host blocks every feed request consults unless given others. */
export const processHostBlocks: HostBlocks = createHostBlocks();

/**
 * The wait a `Retry-After` header asks for, in ms from `nowMs`, capped at {@link MAX_RETRY_AFTER_MS}: delay-seconds
 * (`30`) or an HTTP-date (`Wed, 21 Oct 2026 07:28:00 GMT`). Null when absent, unreadable, or not in the future.
 *
 * @example
 * retryAfterMs("30", Date.now()); // 30000
 */
export function retryAfterMs(header: string | null, nowMs: number): number | null {
  const text = header?.trim();
  if (!text) return null;
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return null;
    ms = at - nowMs;
  }
  return ms > 0 ? Math.min(ms, MAX_RETRY_AFTER_MS) : null;
}
