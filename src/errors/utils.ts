/** Formatters shared by every error domain (and by the CLI, which prints the same values the same way). */

/**
 * One line that says what went wrong, for a CLI or a log: a `BaseError`'s `shortMessage` (or any viem error's),
 * else the first line of the message. Never a stack trace.
 */
export function errorLine(error: unknown): string {
  const message =
    error && typeof error === "object" && "shortMessage" in error && typeof error.shortMessage === "string"
      ? error.shortMessage
      : error instanceof Error
        ? error.message
        : String(error);
  return message.split("\n")[0];
}

/** Any thrown value as an `Error` (for a `cause`), or undefined when there is none. */
export function asError(cause: unknown): Error | undefined {
  if (cause === undefined) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- any thrown value: String() is the conversion that takes them all
  return cause instanceof Error ? cause : new Error(String(cause));
}

/** `2026-11-25T04:00:00Z` for Unix seconds; `unix <seconds>` for a time a `Date` cannot hold. */
export function formatIsoTime(seconds: bigint): string {
  const ms = Number(seconds) * 1000;
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15
    ? new Date(ms).toISOString().replace(".000Z", "Z")
    : `unix ${seconds}`;
}

/** `2d 3h 4m 5s` for a positive number of seconds; `0s` for zero or less. */
export function formatDuration(seconds: bigint): string {
  if (seconds <= 0n) return "0s";
  const parts: string[] = [];
  const units: [bigint, string][] = [
    [86_400n, "d"],
    [3_600n, "h"],
    [60n, "m"],
    [1n, "s"],
  ];
  let rest = seconds;
  for (const [size, suffix] of units) {
    if (rest >= size) {
      parts.push(`${rest / size}${suffix}`);
      rest %= size;
    }
  }
  return parts.join(" ");
}

/** Only scheme, host and port: a provider URL may carry an API key in its path or query. */
export function redactRpcUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const hidden = parsed.pathname.length > 1 || parsed.search || parsed.username || parsed.password;
    return `${parsed.protocol}//${parsed.host}${hidden ? "/…" : ""}`;
  } catch {
    return "<invalid URL>";
  }
}
