// solidity-coverage settings for `npm run coverage` (hardhat coverage --testfiles "test/registry/*.test.ts").
// Test harnesses are not product code; the example consumer in contracts/examples/ stays covered.
// Gas snapshots (test/**/*.gas.ts) are not in the coverage run: instrumented bytecode makes gas figures meaningless.
const { execFileSync } = require("node:child_process");

module.exports = {
  skipFiles: ["test/"],
  // With Hardhat >= 2.0.4 solidity-coverage writes its instrumented, unoptimized build into the normal `artifacts/`
  // and `typechain-types/`, relying on the next `hardhat compile` to replace it. `npm run test:one` does not compile,
  // so rebuild right away: otherwise later test runs (and gas snapshots) would use instrumented bytecode.
  onIstanbulComplete: async () => {
    execFileSync("npx", ["hardhat", "compile", "--quiet"], { stdio: "inherit" });
  },
};
