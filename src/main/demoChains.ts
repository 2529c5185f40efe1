/**
 * `npm run demo:chains`: the demo's chains and feed server without the service
 * (docs/operations.md#try-it-on-one-machine-npm-run-demochains), so that several configured processes can run against
 * them on one machine. Writes `DATA_DIR/demo.env` and `DATA_DIR/demo-pools.json`, then serves until SIGINT or SIGTERM
 * (clean stop, exit 0). Reads `DATA_DIR`, `DEMO_DAYS`, `DEMO_SEED` and the attester key's variables as `npm start`
 * does.
 *
 * `npm run demo:chains` runs this file through `exec`, as `npm start` runs the service: npm forwards the signals it
 * receives straight to it.
 */
import { relative } from "node:path";
import { loadConfig, type ServiceConfig } from "../config/loadConfig";
import { ConfigError } from "../errors/config";
import { StartupAbortedError } from "../errors/startup";
import { errorLine } from "@attestation-registry/sdk/errors";
import { writeDemoFiles } from "../demo/demoEnv";
import { serveDemoChains, type ServedDemoChains } from "../demo/serveDemoChains";
import { ensurePrivateDir } from "../storage/fileModes";
import type { Hex } from "viem";
import { loadAttesterKey, type LoadAttesterKeyReturnType } from "./attesterKey";
import { EXIT_CONFIG, createProcessLog, handleStopSignals } from "./processControl";

const log = createProcessLog();

/**
 * The attester key the demo registers, as a file configured processes can be given: the dev key `DATA_DIR/attester.key`
 * (created once) or `ATTESTER_KEY_FILE`. A key given in `ATTESTER_PRIVATE_KEY` has no file to name: refused.
 */
function attesterKey(config: ServiceConfig): LoadAttesterKeyReturnType & { file: string; privateKey: Hex } {
  const dir = ensurePrivateDir(config.dataDir);
  if (dir.action === "tightened") log(`DATA_DIR ${config.dataDir} was mode ${dir.was}; now 0700`);
  if (dir.action === "left") log(`warning: DATA_DIR ${config.dataDir} is mode ${dir.was} and shared or not ours`);
  const key = loadAttesterKey({ source: config.attesterKey });
  if (key.file === undefined || key.privateKey === undefined) {
    throw new ConfigError({
      variable: "ATTESTER_PRIVATE_KEY",
      message:
        "demo:chains hands configured processes the attester key as a file (ATTESTER_KEY_FILE in demo.env): " +
        "unset it to use the dev key DATA_DIR/attester.key, or give ATTESTER_KEY_FILE",
    });
  }
  log(`attester ${key.address} (${key.origin}: ${key.file})`);
  return { ...key, file: key.file, privateKey: key.privateKey };
}

async function main(): Promise<void> {
  let config: ServiceConfig;
  let key: ReturnType<typeof attesterKey>;
  try {
    config = loadConfig({ env: process.env });
    key = attesterKey(config);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`configuration error: ${error.shortMessage}\n`);
    process.exit(EXIT_CONFIG);
  }

  const signals = handleStopSignals({ log, whileStarting: "stopping after the current simulated day" });

  const { days, seed } = config.demo;
  log(`demo: starting the demo's chains and feeds alone, ${days} simulated day(s) (seed ${seed})`);
  let served: ServedDemoChains;
  try {
    served = await serveDemoChains({ days, seed, attesterPrivateKey: key.privateKey, log, signal: signals.startup });
  } catch (error) {
    if (error instanceof StartupAbortedError || signals.startup.aborted) {
      log("stopped");
      process.exit(0);
    }
    process.stderr.write(`startup failed: ${errorLine(error)}\n`);
    process.exit(1);
  }
  let files: ReturnType<typeof writeDemoFiles>;
  try {
    if (signals.startup.aborted) throw new StartupAbortedError();
    files = writeDemoFiles({ dataDir: config.dataDir, served, attesterKeyFile: key.file });
  } catch (error) {
    await served.stop();
    if (error instanceof StartupAbortedError) {
      log("stopped");
      process.exit(0);
    }
    process.stderr.write(`startup failed: cannot write the demo's files: ${errorLine(error)}\n`);
    process.exit(1);
  }
  signals.started({
    stop: async () => {
      files.remove();
      await served.stop();
    },
  });
  for (const chain of served.chains) log(`demo: chain ${chain.chainId} at ${chain.rpcUrl}`);
  log(`demo: registry ${served.registry.address} on chain ${served.registry.chainId}`);
  log(`demo: feeds at ${Object.values(served.feeds).join(", ")}`);
  const near = relative(process.cwd(), files.envFile);
  const envFile = near.startsWith("..") || near === "" ? files.envFile : near;
  log(`demo chains ready: wrote ${files.envFile} and ${files.poolsFile}`);
  log(
    `run a configured process against them: set -a; . ${envFile}; set +a; ` +
      "DATABASE_URL=postgres://… SERVICE_ROLE=worker npm start   (Ctrl-C here stops the chains)",
  );
}

void main();
