/** pino's numeric levels: a service line's `level` means what a request line's does. */
export const LOG_LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;

export type LogLevelName = keyof typeof LOG_LEVELS;

/**
 * One log line as the HTTP server's logger (pino) writes it: a JSON object and a newline, with pino's `level`, `time`
 * (Unix ms) and `msg`, and the `instance` every line of the process carries (the server's logger has it as its base
 * field). The service's own lines (`npm start`'s progress, passes, shutdown) are written through this, so that every
 * line on the process's output is one JSON object (docs/operations.md#probes-metrics-and-logs).
 *
 * @param parameters - `msg`, `instance`, `level` (default `info`) and `time` (default now, Unix ms).
 * @returns the line, newline included.
 * @example
 * process.stdout.write(jsonLogLine({ msg: "stopped", instance: config.instanceId }));
 * // {"level":30,"time":1767225600000,"instance":"host-42-a1b2c3","msg":"stopped"}
 */
export function jsonLogLine(parameters: {
  msg: string;
  instance?: string;
  level?: LogLevelName;
  time?: number;
}): string {
  const { msg, instance, level = "info", time = Date.now() } = parameters;
  const line =
    instance === undefined
      ? { level: LOG_LEVELS[level], time, msg }
      : { level: LOG_LEVELS[level], time, instance, msg };
  return `${JSON.stringify(line)}\n`;
}
