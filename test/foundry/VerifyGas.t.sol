// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Base} from "./utils/Base.sol";
import {Attestation} from "../../contracts/Common.sol";
import {IAttestationRegistry} from "../../contracts/IAttestationRegistry.sol";
import {VerifyGasCaller} from "../../contracts/test/VerifyGasCaller.sol";

/// @notice `deployCode`, the one cheatcode this file needs beyond `Base`'s.
interface VmDeploy {
    function deployCode(string calldata artifactPath, bytes calldata constructorArgs) external returns (address);
}

/// @notice The issue-34 gas budgets of `verify`, measured under Foundry with the caller harness of the Hardhat gas
/// snapshot (test/registry/AttestationRegistry.gas.ts holds the exact figures): for an attester that never revoked,
/// cold at most 10,000 and warm at most 5,700. `npm run test:forge -- --match-contract VerifyGas -vv` prints them.
/// @dev The registry is deployed from its artifact (`deployCode`), not imported, so this file and the harness are built
/// on the legacy pipeline as in Hardhat; importing the registry would put them in its IR compilation unit and measure
/// a cheaper caller. Each test runs in its own transaction after `setUp`, so the first call is cold.
contract VerifyGasTest is Base {
    event log_named_uint(string key, uint256 val);

    uint256 internal constant KEY = 0xA11CE;
    uint256 internal constant MIN_BOND = 1 ether;

    IAttestationRegistry internal reg;
    VerifyGasCaller internal caller;
    Attestation internal a;
    bytes internal signature;
    address internal attester;

    function setUp() public virtual {
        reg = IAttestationRegistry(
            VmDeploy(address(vm)).deployCode(
                "AttestationRegistry.sol:AttestationRegistry",
                abi.encode(address(this), MIN_BOND, uint64(7 days))
            )
        );
        caller = new VerifyGasCaller();
        attester = vm.addr(KEY);
        vm.deal(attester, MIN_BOND);
        vm.prank(attester);
        reg.register{value: MIN_BOND}(attester);
        a = Attestation(8453, 0x1111111111111111111111111111111111111111, 85, 30, 1_700_000_000, 4_000_000_000);
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(KEY, reg.hashAttestation(a));
        signature = abi.encodePacked(r, s, v);
    }

    function _measure() internal returns (uint256 cold, uint256 warm) {
        bool valid;
        address who;
        (cold, warm, valid, who) = caller.measure(reg, a, signature);
        assertTrue(valid, "valid");
        assertEq(who, attester, "recovered");
        emit log_named_uint("verify: cold", cold);
        emit log_named_uint("verify: warm", warm);
    }

    function test_verifyGas() public virtual {
        (uint256 cold, uint256 warm) = _measure();
        assertTrue(cold <= 10_000, "cold above 10,000");
        assertTrue(warm <= 5_700, "warm above 5,700");
    }
}

/// @notice The same for an attester that has revoked another digest (so `verify` also reads the revocation mapping):
/// no more than before issue 34, 12,703 cold and 6,170 warm.
contract VerifyGasRevokedTest is VerifyGasTest {
    function setUp() public override {
        super.setUp();
        vm.prank(attester);
        reg.revoke(keccak256("another digest"));
    }

    function test_verifyGas() public override {
        (uint256 cold, uint256 warm) = _measure();
        assertTrue(cold <= 12_703, "cold above 12,703");
        assertTrue(warm <= 6_170, "warm above 6,170");
    }
}
