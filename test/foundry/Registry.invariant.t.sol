// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Base} from "./utils/Base.sol";
import {AttestationRegistry} from "../../contracts/AttestationRegistry.sol";
import {Attestation, AttesterInfo} from "../../contracts/Common.sol";

/// @notice Drives every external function of the registry with many attesters, amounts, warps and signatures, and
/// keeps ghost books the invariants compare with the contract.
contract Handler is Base {
    AttestationRegistry public immutable reg;
    uint256 public constant N = 6;
    uint256 public constant MIN_BOND = 1 ether;
    uint256 public constant PERIOD = 3 days;

    address public ghostOwner;
    address public ghostPending;
    uint256 public ghostOwed;
    uint256 public violations;
    string public lastViolation;
    mapping(address => mapping(bytes32 => bool)) public ghostRevoked;
    uint256 public calls;

    constructor() {
        reg = new AttestationRegistry(address(this), MIN_BOND, uint64(PERIOD));
        ghostOwner = address(this);
    }

    function key(uint256 i) public pure returns (uint256) {
        return 0xA11CE + (i % N);
    }

    function attester(uint256 i) public pure returns (address) {
        return vm.addr(key(i));
    }

    /// @notice The fixed attestation `j` (expiring at a time the warps cross) and its digest.
    function attestation(uint256 j) public pure returns (Attestation memory a) {
        a = Attestation(1, address(uint160(0xBEEF + j)), uint16(j), 30, 1, uint64(1_700_000_000 + (j % 4) * 2 days));
    }

    function _violation(string memory why) internal {
        violations++;
        lastViolation = why;
    }

    function register(uint256 i, uint256 amount, address beneficiary) external {
        address who = attester(i);
        amount = bound(amount, 0, 5 ether);
        if (beneficiary == address(0) || beneficiary.code.length != 0) beneficiary = address(uint160(0xB0B + i));
        vm.deal(who, amount);
        vm.prank(who);
        try reg.register{value: amount}(beneficiary) {
            if (amount < MIN_BOND) _violation("registered below the minimum bond");
            ghostOwed += amount;
        } catch {}
        calls++;
    }

    function addBond(uint256 i, uint256 amount, uint256 from) external {
        amount = bound(amount, 0, 3 ether);
        address payer = attester(from);
        vm.deal(payer, amount);
        vm.prank(payer);
        try reg.addBond{value: amount}(attester(i)) {
            ghostOwed += amount;
        } catch {}
        calls++;
    }

    function requestUnbond(uint256 i) external {
        vm.prank(attester(i));
        try reg.requestUnbond() {} catch {}
        calls++;
    }

    function deregister(uint256 i) external {
        vm.prank(attester(i));
        try reg.deregister() {} catch {}
        calls++;
    }

    function withdraw(uint256 i) external {
        address who = attester(i);
        AttesterInfo memory before = reg.getAttester(who);
        uint256 paidBefore = before.beneficiary.balance;
        vm.prank(who);
        try reg.withdraw() {
            if (!before.unbonding) _violation("withdrew without unbonding");
            if (block.timestamp < before.withdrawableAt) _violation("withdrew before the unbonding period ended");
            if (before.beneficiary.balance - paidBefore != before.bond) _violation("withdrawal paid a wrong amount");
            ghostOwed -= before.bond;
        } catch {}
        calls++;
    }

    function revoke(uint256 i, uint256 j, uint256 by) external {
        bytes32 d = reg.hashAttestation(attestation(j));
        address who = attester(by);
        vm.prank(who);
        try reg.revoke(d) {
            if (ghostRevoked[who][d]) _violation("revoked twice");
            ghostRevoked[who][d] = true;
        } catch {}
        // `i` is an attester who is not the caller: its record for `d` must not move.
        address other = attester(i);
        if (other != who && reg.isRevoked(other, d) != ghostRevoked[other][d]) _violation("revoked someone else's");
        calls++;
    }

    function revokeBatch(uint256 by, uint256 j0, uint256 j1) external {
        address who = attester(by);
        bytes32[] memory ds = new bytes32[](2);
        ds[0] = reg.hashAttestation(attestation(j0));
        ds[1] = reg.hashAttestation(attestation(j1));
        vm.prank(who);
        try reg.revokeBatch(ds) {
            ghostRevoked[who][ds[0]] = true;
            ghostRevoked[who][ds[1]] = true;
        } catch {}
        calls++;
    }

    function removeAttester(uint256 i, bool asOwner) external {
        vm.prank(asOwner ? reg.owner() : attester(i));
        try reg.removeAttester(attester(i)) {
            if (!asOwner) _violation("non-owner removed an attester");
        } catch {}
        calls++;
    }

    function slash(uint256 i, uint256 amount, bool asOwner) external {
        address who = attester(i);
        uint256 bond = reg.getAttester(who).bond;
        amount = bound(amount, 0, bond + 1 ether);
        address recipient = address(0x5EA);
        uint256 before = recipient.balance;
        vm.prank(asOwner ? reg.owner() : who);
        try reg.slash(who, amount, recipient) {
            if (!asOwner) _violation("non-owner slashed");
            if (amount > bond) _violation("slash took more than the bond");
            if (reg.getAttester(who).bond != bond - amount) _violation("slash left a wrong bond");
            if (recipient.balance - before != amount) _violation("slash paid a wrong amount");
            ghostOwed -= amount;
        } catch {}
        calls++;
    }

    function transferOwnership(address to, bool asOwner, uint256 i) external {
        vm.prank(asOwner ? reg.owner() : attester(i));
        try reg.transferOwnership(to) {
            if (!asOwner) _violation("non-owner started a transfer");
            ghostPending = to;
        } catch {}
        calls++;
    }

    function acceptOwnership(bool asPending, uint256 i) external {
        address by = asPending ? reg.pendingOwner() : attester(i);
        vm.prank(by);
        try reg.acceptOwnership() {
            if (by != ghostPending) _violation("ownership accepted by a non-pending account");
            ghostOwner = by;
            ghostPending = address(0);
        } catch {}
        calls++;
    }

    function warp(uint256 dt) external {
        vm.warp(block.timestamp + bound(dt, 0, 2 days));
        calls++;
    }
}

/// @notice Stateful invariants of the registry under the handler's random call sequences.
contract RegistryInvariantTest is Base {
    Handler internal h;
    AttestationRegistry internal reg;

    function setUp() public {
        vm.warp(1_699_990_000);
        h = new Handler();
        reg = h.reg();
    }

    /// @notice forge's invariant target: only the handler is called.
    function targetContracts() public view returns (address[] memory t) {
        t = new address[](1);
        t[0] = address(h);
    }

    function invariant_handlerSawNoViolation() public view {
        assertEq(h.violations(), 0, h.lastViolation());
    }

    function invariant_balanceEqualsWhatIsOwed() public view {
        uint256 sum;
        for (uint256 i = 0; i < h.N(); i++) sum += reg.getAttester(h.attester(i)).bond;
        assertEq(address(reg).balance, sum, "balance != sum of bonds");
        assertEq(address(reg).balance, h.ghostOwed(), "balance != deposits - withdrawals - slashes");
    }

    function invariant_ownershipOnlyThroughTwoSteps() public view {
        assertEq(reg.owner(), h.ghostOwner(), "owner");
        assertEq(reg.pendingOwner(), h.ghostPending(), "pending owner");
    }

    function invariant_onlyBackedUnexpiredUnrevokedVerifies() public view {
        for (uint256 i = 0; i < h.N(); i++) {
            address who = h.attester(i);
            AttesterInfo memory info = reg.getAttester(who);
            for (uint256 j = 0; j < 4; j++) {
                Attestation memory a = h.attestation(j);
                bytes32 d = reg.hashAttestation(a);
                assertTrue(reg.isRevoked(who, d) == h.ghostRevoked(who, d), "revocation record");
                (uint8 v, bytes32 r, bytes32 s) = vm.sign(h.key(i), d);
                (bool valid, address signer) = reg.verify(a, abi.encodePacked(r, s, v));
                assertEq(signer, who, "recovered signer");
                bool expected =
                    info.registered &&
                        !info.unbonding &&
                        info.bond >= h.MIN_BOND() &&
                        block.timestamp <= a.expiresAt &&
                        !h.ghostRevoked(who, d);
                assertTrue(valid == expected, "verify disagrees with the attester's state");
            }
        }
    }
}
