// solidity-coverage settings for `npm run coverage` (hardhat coverage --testfiles "test/registry/*.test.ts").
// Test harnesses are not product code; the example consumer in contracts/examples/ stays covered.
// Gas snapshots (test/**/*.gas.ts) are not in the coverage run: instrumented bytecode makes gas figures meaningless.
module.exports = {
  skipFiles: ["test/"],
};
