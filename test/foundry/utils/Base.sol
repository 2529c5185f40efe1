// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice The few Foundry cheatcodes these tests use (forge-std is not installed: no downloads).
interface Vm {
    function addr(uint256 privateKey) external pure returns (address);
    function sign(uint256 privateKey, bytes32 digest) external pure returns (uint8 v, bytes32 r, bytes32 s);
    function warp(uint256 timestamp) external;
    function deal(address account, uint256 newBalance) external;
    function prank(address sender) external;
    function expectRevert() external;
    function assume(bool condition) external pure;
}

/// @notice A minimal test base: the cheatcode address and assertions that revert with a message.
abstract contract Base {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));

    function fail(string memory why) internal pure {
        revert(why);
    }

    function assertTrue(bool c, string memory why) internal pure {
        if (!c) fail(why);
    }

    function assertEq(bytes32 a, bytes32 b, string memory why) internal pure {
        if (a != b) fail(why);
    }

    function assertEq(address a, address b, string memory why) internal pure {
        if (a != b) fail(why);
    }

    function assertEq(uint256 a, uint256 b, string memory why) internal pure {
        if (a != b) fail(why);
    }

    function bound(uint256 x, uint256 lo, uint256 hi) internal pure returns (uint256) {
        return lo + (x % (hi - lo + 1));
    }
}
