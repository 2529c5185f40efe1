// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice Deliberately failing: scripts/run-forge.js's self-test runs this and must see the run fail.
contract FailingFuzzTest {
    function testFuzz_alwaysFails(uint256 x) public pure {
        require(x != x, "deliberate failure");
    }
}
