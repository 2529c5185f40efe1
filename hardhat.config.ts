import { subtask } from "hardhat/config";
import { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from "hardhat/builtin-tasks/task-names";
import type { HardhatUserConfig } from "hardhat/config";
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

const config: HardhatUserConfig = {
  solidity: {
    version: SOLC_VERSION,
    settings: {
      optimizer: { enabled: true, runs: 1_000_000 },
      evmVersion: "cancun",
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
  },
  gasReporter: {
    enabled: process.env.REPORT_GAS === "true",
    offline: true,
  },
  mocha: {
    timeout: 120_000,
  },
};

export default config;
