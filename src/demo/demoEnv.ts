import { chmodSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PRIVATE_FILE_MODE } from "../storage/fileModes";
import type { ServedDemoChains } from "./serveDemoChains";

/** The environment file `npm run demo:chains` writes in DATA_DIR. */
export const DEMO_ENV_FILE = "demo.env";
/** The pools file it writes beside it (`POOLS_FILE`). */
export const DEMO_POOLS_FILE = "demo-pools.json";

export type DemoEnvParameters = {
  served: Pick<ServedDemoChains, "chains" | "feeds" | "registry">;
  /** Absolute path of the pools file. */
  poolsFile: string;
  /** Absolute path of the attester's key file (the key registered in the demo's registry). */
  attesterKeyFile: string;
};

/**
 * Every variable a configured process needs to read the served demo
 * (docs/operations.md#try-it-on-one-machine-npm-run-demochains), in the order written: `RPC_URL_<chainId>` by chain id,
 * `POOLS_FILE`, the feed URLs, `REGISTRY_ADDRESS`, `REGISTRY_CHAIN_ID`, `ATTESTER_KEY_FILE`. `DEFILLAMA_COINS_URL` is
 * empty (unset for the service): the demo's feeds serve no coin prices, so depth is valued with prices derived on
 * chain, as in `npm start`'s demo, and a URL inherited from the shell is not used against the demo's tokens.
 *
 * @param {@link DemoEnvParameters}
 */
export function demoEnvVariables({ served, poolsFile, attesterKeyFile }: DemoEnvParameters): Record<string, string> {
  const chains = [...served.chains].sort((a, b) => a.chainId - b.chainId);
  return {
    ...Object.fromEntries(chains.map((chain) => [`RPC_URL_${chain.chainId}`, chain.rpcUrl])),
    POOLS_FILE: poolsFile,
    DEFILLAMA_YIELDS_URL: served.feeds.defillamaYieldsUrl,
    DEFILLAMA_API_URL: served.feeds.defillamaApiUrl,
    DEFILLAMA_COINS_URL: "",
    MERKL_API_URL: served.feeds.merklApiUrl,
    REGISTRY_ADDRESS: served.registry.address,
    REGISTRY_CHAIN_ID: String(served.registry.chainId),
    ATTESTER_KEY_FILE: attesterKeyFile,
  };
}

/** A value quoted for `sh` (`. demo.env`) and for dotenv-style readers: single quotes, a quote as `'\''`. */
function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * Writes `DATA_DIR/demo-pools.json` (the demo's pools, `{ "pools": [ … ] }`) and `DATA_DIR/demo.env` (mode 0600, one
 * `NAME='value'` a line, see {@link demoEnvVariables}), each through a temporary file and a rename, so a reader never
 * sees half a file.
 *
 * @returns the two paths, the variables, and `remove()` (deletes the env file: its ports die with the process).
 */
export function writeDemoFiles(parameters: {
  dataDir: string;
  served: Pick<ServedDemoChains, "chains" | "feeds" | "registry" | "pools">;
  attesterKeyFile: string;
}): { envFile: string; poolsFile: string; variables: Record<string, string>; remove(): void } {
  const { dataDir, served, attesterKeyFile } = parameters;
  const poolsFile = join(dataDir, DEMO_POOLS_FILE);
  const envFile = join(dataDir, DEMO_ENV_FILE);
  writeAtomically(poolsFile, `${JSON.stringify({ pools: served.pools }, null, 2)}\n`);
  const variables = demoEnvVariables({ served, poolsFile, attesterKeyFile });
  const lines = [
    `# Written by \`npm run demo:chains\` (pid ${process.pid}) at ${new Date().toISOString()}.`,
    "# The demo's chains, feeds, pools, registry and attester key, for configured processes; valid while it runs",
    `# (its ports change on every start). Load it into a shell with:  set -a; . ${shellQuote(envFile)}; set +a`,
    ...Object.entries(variables).map(([name, value]) => `${name}=${shellQuote(value)}`),
  ];
  writeAtomically(envFile, `${lines.join("\n")}\n`);
  return { envFile, poolsFile, variables, remove: () => rmSync(envFile, { force: true }) };
}

/** Writes `file` (mode 0600) through `<file>.tmp` and a rename. */
function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, text, { mode: PRIVATE_FILE_MODE });
  chmodSync(temporary, PRIVATE_FILE_MODE); // whatever the umask, or a leftover temporary file's mode
  renameSync(temporary, file);
}
