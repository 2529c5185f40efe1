/** Formatters shared by every error domain. */

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
  return cause instanceof Error ? cause : new Error(String(cause));
}
