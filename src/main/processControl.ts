import { errorLine } from "@attestation-registry/sdk/errors";
import { jsonLogLine, type LogLevelName } from "../service/jsonLog";

/** Exit status for a configuration error (BSD `EX_CONFIG`). */
export const EXIT_CONFIG = 78;

/**
 * Ctrl-C in a terminal reaches the whole foreground process group: under `npm start` the process gets SIGINT from
 * the terminal and the same SIGINT again from npm, which forwards it, within milliseconds. A repeat of the first
 * signal within this window is that relay, not a second Ctrl-C.
 */
export const RELAYED_SIGNAL_MS = 1000;

/** A process entry's log: one JSON object per line on stdout, naming the instance once it is known. */
export interface ProcessLog {
  (line: string, level?: LogLevelName): void;
  /** Names this process (`INSTANCE_ID`) in every later line. */
  instance?: string;
}

/**
 * The log of a process entry (`npm start`, `npm run demo:chains`): each line a JSON object shaped as the HTTP
 * server's (pino) lines, `{"level","time","instance","msg"}` (src/service/jsonLog.ts). `LOG_LEVEL` does not filter
 * these: it is the HTTP server's level (default `warn`), and these few lines (start, passes, shutdown) are what an
 * operator follows; filter on `level` downstream.
 */
export function createProcessLog(): ProcessLog {
  const log: ProcessLog = (line, level = "info") => {
    process.stdout.write(jsonLogLine({ msg: line, level, instance: log.instance }));
  };
  return log;
}

/** What a process entry stops on SIGINT / SIGTERM once it has started. */
export interface Stoppable {
  /** Called first, with the signal (mark not ready, say so, arm a backstop). Default: logs `<signal>: shutting down`. */
  beforeStop?(signal: NodeJS.Signals): void;
  stop(): Promise<void>;
}

/**
 * SIGINT and SIGTERM for a process entry. During startup the first signal aborts `startup` (the entry stops what it
 * started at its next step) and logs `whileStarting`; once `started(…)` was called it stops that (exit 0, or 1 with
 * one line on stderr). npm's relay of the same signal is ignored; another signal after the first exits 1 at once.
 *
 * @returns the startup signal, and `started` to call with what to stop once the process runs.
 */
export function handleStopSignals(parameters: { log: ProcessLog; whileStarting: string }): {
  startup: AbortSignal;
  started(running: Stoppable): void;
} {
  const { log, whileStarting } = parameters;
  const controller = new AbortController();
  let running: Stoppable | null = null;
  let first: { signal: NodeJS.Signals; at: number } | null = null;
  const shutdown = (signal: NodeJS.Signals) => {
    if (first) {
      if (signal === first.signal && Date.now() - first.at < RELAYED_SIGNAL_MS) return;
      log(`${signal} again: exiting now`);
      process.exit(1);
    }
    first = { signal, at: Date.now() };
    if (!running) {
      controller.abort();
      log(`${signal}: ${whileStarting}`);
      return;
    }
    if (running.beforeStop) running.beforeStop(signal);
    else log(`${signal}: shutting down`);
    running.stop().then(
      () => {
        log("stopped");
        process.exit(0);
      },
      (error) => {
        process.stderr.write(`shutdown failed: ${errorLine(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
  return { startup: controller.signal, started: (value) => (running = value) };
}
