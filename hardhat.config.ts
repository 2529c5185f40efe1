import { extendEnvironment, subtask, vars } from "hardhat/config";
import { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from "hardhat/builtin-tasks/task-names";
import type { HardhatUserConfig } from "hardhat/config";
import type { HttpNetworkUserConfig } from "hardhat/types";
import { HardhatPluginError } from "hardhat/plugins";
import "@nomicfoundation/hardhat-toolbox";

/** The one compiler version. The `solc` npm package of exactly this version is a dependency. */
const SOLC_VERSION = "0.8.28";

// Never download a compiler: hand Hardhat the solc-js build that npm installed.
subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async (args: { solcVersion: string }, _hre, runSuper) => {
  if (args.solcVersion !== SOLC_VERSION) return runSuper();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const solc = require("solc") as { version(): string };
  const longVersion = solc.version().replace(/\.Emscripten\.clang$/, "");
  if (!longVersion.startsWith(SOLC_VERSION)) {
    throw new Error(`installed solc is ${longVersion}, expected ${SOLC_VERSION}: run npm ci`);
  }
  return { compilerPath: require.resolve("solc/soljson.js"), isSolcJs: true, version: SOLC_VERSION, longVersion };
});

/**
 * The public networks a registry is deployed to: Hardhat network name → chain id and the prefix of its two Hardhat
 * configuration variables, `<PREFIX>_RPC_URL` and `<PREFIX>_DEPLOYER_KEY` (set with `npx hardhat vars set`, or as
 * `HARDHAT_VAR_<NAME>` in the environment; never committed). Parameters: `ignition/parameters/<name>.json`.
 */
const PUBLIC_NETWORKS = {
  sepolia: { chainId: 11_155_111, prefix: "SEPOLIA" },
  mainnet: { chainId: 1, prefix: "MAINNET" },
  base: { chainId: 8453, prefix: "BASE" },
  arbitrumOne: { chainId: 42_161, prefix: "ARBITRUM_ONE" },
} as const;

/** A deployer key Hardhat accepts: 32 bytes of hex, `0x` optional. */
const PRIVATE_KEY = /^(0x)?[0-9a-fA-F]{64}$/;

/**
 * What keeps a public network from being used: one phrase per configuration variable that is unset or malformed
 * (`<prefix>_RPC_URL` must be an http(s) URL, `<prefix>_DEPLOYER_KEY` a 32-byte hex key). Empty when it is ready.
 */
function networkProblems(prefix: string): string[] {
  const url = vars.get(`${prefix}_RPC_URL`, "");
  const key = vars.get(`${prefix}_DEPLOYER_KEY`, "");
  const problems: string[] = [];
  if (url === "") problems.push(`${prefix}_RPC_URL is not set`);
  else if (!/^https?:\/\//.test(url)) problems.push(`${prefix}_RPC_URL is not an http(s) URL`);
  if (key === "") problems.push(`${prefix}_DEPLOYER_KEY is not set`);
  else if (!PRIVATE_KEY.test(key)) problems.push(`${prefix}_DEPLOYER_KEY is not a 32-byte hex private key`);
  return problems;
}

/**
 * One public network's config. Always defined, and a variable that is unset or malformed breaks no other network or
 * task: the network then holds no key (a malformed key would fail Hardhat's config validation for every task), and
 * selecting it fails in `extendEnvironment` below.
 */
function publicNetwork({ chainId, prefix }: { chainId: number; prefix: string }): HttpNetworkUserConfig {
  const key = vars.get(`${prefix}_DEPLOYER_KEY`, "");
  return { chainId, url: vars.get(`${prefix}_RPC_URL`, ""), accounts: PRIVATE_KEY.test(key) ? [key] : [] };
}

// Selecting a public network (`--network <name>`) that is not ready is one clear error, before any task runs.
extendEnvironment((hre) => {
  const selected = PUBLIC_NETWORKS[hre.network.name as keyof typeof PUBLIC_NETWORKS];
  if (selected === undefined) return;
  const problems = networkProblems(selected.prefix);
  if (problems.length === 0) return;
  throw new HardhatPluginError(
    "attestation-registry",
    `network ${hre.network.name} cannot be used: ${problems.join("; ")}. Set each Hardhat configuration variable ` +
      `with \`npx hardhat vars set <NAME>\` (${selected.prefix}_RPC_URL, ${selected.prefix}_DEPLOYER_KEY; ` +
      "see docs/registry.md, Deploying)",
  );
});

/** The compiler settings of every contract: optimizer runs 1e6 (a registry is deployed once and called often). */
const SOLC_SETTINGS = {
  optimizer: { enabled: true, runs: 1_000_000 },
  evmVersion: "cancun",
};

const config: HardhatUserConfig = {
  solidity: {
    compilers: [{ version: SOLC_VERSION, settings: SOLC_SETTINGS }],
    // The registry alone goes through the IR pipeline: its dispatcher and ABI decoder come out about 300 gas cheaper
    // per `verify` than the legacy pipeline's. The harnesses and the example consumer stay on the legacy pipeline, so
    // the gas snapshot's "from a contract" figures measure the registry's saving, not a cheaper caller.
    overrides: {
      "contracts/AttestationRegistry.sol": { version: SOLC_VERSION, settings: { ...SOLC_SETTINGS, viaIR: true } },
    },
  },
  networks: {
    hardhat: {
      // Gas figures are measured on a fixed hardfork so the snapshot is deterministic.
      hardfork: "cancun",
      // `hardhat node` child processes started by the demo (src/chain) set these; tests leave them unset.
      chainId: process.env.HARDHAT_CHAIN_ID ? Number(process.env.HARDHAT_CHAIN_ID) : 31337,
      ...(process.env.HARDHAT_INITIAL_DATE ? { initialDate: process.env.HARDHAT_INITIAL_DATE } : {}),
      allowUnlimitedContractSize: process.env.HARDHAT_UNLIMITED_CONTRACT_SIZE === "true",
    },
    sepolia: publicNetwork(PUBLIC_NETWORKS.sepolia),
    mainnet: publicNetwork(PUBLIC_NETWORKS.mainnet),
    base: publicNetwork(PUBLIC_NETWORKS.base),
    arbitrumOne: publicNetwork(PUBLIC_NETWORKS.arbitrumOne),
  },
  // hardhat-verify (`npx hardhat ignition deploy … --verify`, or `npx hardhat verify`): one Etherscan v2 key (a string,
  // not a per-chain object) verifies on every chain above. Unset, verification alone fails, naming the missing key.
  etherscan: { apiKey: vars.get("ETHERSCAN_API_KEY", "") },
  sourcify: { enabled: false },
  gasReporter: {
    enabled: process.env.REPORT_GAS === "true",
    offline: true,
  },
  mocha: {
    timeout: 120_000,
  },
};

export default config;
