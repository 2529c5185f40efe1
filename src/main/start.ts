/**
 * `npm start`: the process entry. Reads the configuration from the environment, runs the service (the demo when
 * nothing is configured), and shuts everything down cleanly on Ctrl-C or SIGTERM.
 *
 * `npm start` runs this file through `exec` (package.json), so the service is npm's own child: npm forwards the
 * SIGINT / SIGTERM it receives straight to it, and nothing is left running when npm is stopped.
 */
import { loadConfig, type ServiceConfig } from "../config/loadConfig";
import { ConfigError } from "../errors/config";
import { StartupAbortedError } from "../errors/startup";
import { errorLine } from "../errors/utils";
import { jsonLogLine, type LogLevelName } from "../service/jsonLog";
import { runService, type RunningService } from "./runService";

/** Exit status for a configuration error (BSD `EX_CONFIG`). */
const EXIT_CONFIG = 78;

/**
 * Ctrl-C in a terminal reaches the whole foreground process group: under `npm start` the service gets SIGINT from
 * the terminal and the same SIGINT again from npm, which forwards it, within milliseconds. A repeat of the first
 * signal within this window is that relay, not a second Ctrl-C.
 */
const RELAYED_SIGNAL_MS = 1000;

/** After SIGTERM, how long stopping may take beyond `SHUTDOWN_GRACE_S` before the process exits 1 anyway. */
const STOP_BACKSTOP_MS = 30_000;

/** `INSTANCE_ID`, once the configuration is read: every line then names this process. */
let instance: string | undefined;

/**
 * One service line on stdout: a JSON object shaped as the HTTP server's (pino) lines, `{"level","time","instance",
 * "msg"}` (src/service/jsonLog.ts). `LOG_LEVEL` does not filter these: it is the HTTP server's level (default `warn`),
 * and these few lines (start, passes, shutdown) are what an operator follows; filter on `level` downstream.
 */
function log(line: string, level: LogLevelName = "info"): void {
  process.stdout.write(jsonLogLine({ msg: line, level, instance }));
}

async function main(): Promise<void> {
  let config: ServiceConfig;
  try {
    config = loadConfig({ env: process.env });
    instance = config.instanceId;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`configuration error: ${error.shortMessage}\n`);
    process.exit(EXIT_CONFIG);
  }

  let service: RunningService | null = null;
  let first: { signal: NodeJS.Signals; at: number } | null = null;
  const startup = new AbortController();
  const shutdown = (signal: NodeJS.Signals) => {
    if (first) {
      if (signal === first.signal && Date.now() - first.at < RELAYED_SIGNAL_MS) return;
      log(`${signal} again: exiting now`);
      process.exit(1);
    }
    first = { signal, at: Date.now() };
    if (!service) {
      // Still starting: runService stops what it started at its next step and throws StartupAbortedError.
      startup.abort();
      log(`${signal}: stopping after the current startup step`);
      return;
    }
    // Not ready at once (/readyz 503); the server stops accepting, requests in flight finish within the grace.
    service.status.draining = true;
    log(`${signal}: shutting down (draining: requests in flight have ${config.shutdownGraceMs / 1000} s to finish)`);
    // A step that never ends (a hung dependency) must not keep the process from exiting.
    setTimeout(() => {
      process.stderr.write("shutdown did not finish in time: exiting now\n");
      process.exit(1);
    }, config.shutdownGraceMs + STOP_BACKSTOP_MS).unref();
    service.stop().then(
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

  try {
    service = await runService({ config, log, signal: startup.signal });
  } catch (error) {
    // An abort may surface wrapped (e.g. by the demo, which stops its chains and rethrows its own error).
    if (error instanceof StartupAbortedError || startup.signal.aborted) {
      log("stopped");
      process.exit(0);
    }
    process.stderr.write(
      `${error instanceof ConfigError ? "configuration error" : "startup failed"}: ${errorLine(error)}\n`,
    );
    process.exit(error instanceof ConfigError ? EXIT_CONFIG : 1);
  }
  log(`ready: attester ${service.attester}; Ctrl-C to stop`);
}

void main();
