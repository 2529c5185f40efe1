/**
 * `npm start`: the main job. Reads the configuration from the environment, runs the service (the demo when nothing
 * is configured), and shuts everything down cleanly on Ctrl-C or SIGTERM.
 */
import { loadConfig, type ServiceConfig } from "./config";
import { errorLine } from "../errors/utils";
import { ConfigError } from "../errors/config";
import { StartupAbortedError, runService, type RunningService } from "./runService";

/** Exit status for a configuration error (BSD `EX_CONFIG`). */
const EXIT_CONFIG = 78;

function log(line: string): void {
  process.stdout.write(`[${new Date().toISOString()}] ${line}\n`);
}

async function main(): Promise<void> {
  let config: ServiceConfig;
  try {
    config = loadConfig({ env: process.env });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`configuration error: ${error.shortMessage}\n`);
    process.exit(EXIT_CONFIG);
  }

  let service: RunningService | null = null;
  let stopping = false;
  const startup = new AbortController();
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      log(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    if (!service) {
      // Still starting: runService stops what it started at its next step and throws StartupAbortedError.
      startup.abort();
      log(`${signal}: stopping after the current startup step`);
      return;
    }
    log(`${signal}: shutting down`);
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
