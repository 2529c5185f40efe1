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
import { errorLine } from "@attestation-registry/sdk/errors";
import { EXIT_CONFIG, createProcessLog, handleStopSignals } from "./processControl";
import { runService, type RunningService } from "./runService";

/** After SIGTERM, how long stopping may take beyond `SHUTDOWN_GRACE_S` before the process exits 1 anyway. */
const STOP_BACKSTOP_MS = 30_000;

const log = createProcessLog();

async function main(): Promise<void> {
  let config: ServiceConfig;
  try {
    config = loadConfig({ env: process.env });
    log.instance = config.instanceId;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`configuration error: ${error.shortMessage}\n`);
    process.exit(EXIT_CONFIG);
  }

  const signals = handleStopSignals({ log, whileStarting: "stopping after the current startup step" });
  let service: RunningService;
  try {
    service = await runService({ config, log, signal: signals.startup });
  } catch (error) {
    // An abort may surface wrapped (e.g. by the demo, which stops its chains and rethrows its own error).
    if (error instanceof StartupAbortedError || signals.startup.aborted) {
      log("stopped");
      process.exit(0);
    }
    process.stderr.write(
      `${error instanceof ConfigError ? "configuration error" : "startup failed"}: ${errorLine(error)}\n`,
    );
    process.exit(error instanceof ConfigError ? EXIT_CONFIG : 1);
  }
  signals.started({
    beforeStop(signal) {
      // Not ready at once (/readyz 503); the server stops accepting, requests in flight finish within the grace.
      service.status.draining = true;
      log(`${signal}: shutting down (draining: requests in flight have ${config.shutdownGraceMs / 1000} s to finish)`);
      // A step that never ends (a hung dependency) must not keep the process from exiting.
      setTimeout(() => {
        process.stderr.write("shutdown did not finish in time: exiting now\n");
        process.exit(1);
      }, config.shutdownGraceMs + STOP_BACKSTOP_MS).unref();
    },
    stop: () => service.stop(),
  });
  log(`ready: attester ${service.attester}; Ctrl-C to stop`);
}

void main();
