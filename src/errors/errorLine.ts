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
