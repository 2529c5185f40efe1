// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Base} from "./utils/Base.sol";
import {AttestationRegistry} from "../../contracts/AttestationRegistry.sol";
import {Attestation, ATTESTATION_TYPEHASH} from "../../contracts/Common.sol";

/// @notice Fuzz tests of `hashAttestation` and `verify` against an independent EIP-712 computation.
contract VerifyFuzzTest is Base {
    AttestationRegistry internal reg;
    uint256 internal constant MIN_BOND = 1 ether;

    function setUp() public {
        reg = new AttestationRegistry(address(this), MIN_BOND, 7 days);
    }

    function _digest(Attestation memory a) internal view returns (bytes32) {
        bytes32 domain = keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256("AttestationRegistry"),
                keccak256("1"),
                block.chainid,
                address(reg)
            )
        );
        bytes32 typeHash = keccak256(
            "Attestation(uint256 chainId,address pool,uint16 confidence,uint32 horizonDays,uint64 issuedAt,uint64 expiresAt)"
        );
        assertEq(typeHash, ATTESTATION_TYPEHASH, "type hash");
        return keccak256(abi.encodePacked("\x19\x01", domain, keccak256(abi.encode(typeHash, a))));
    }

    function testFuzz_hashAttestationMatchesEip712(Attestation memory a) public view {
        assertEq(reg.hashAttestation(a), _digest(a), "digest");
    }

    function testFuzz_verifyBondedSigner(uint256 key, Attestation memory a, uint256 bond) public {
        key = bound(key, 1, 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364140);
        bond = bound(bond, MIN_BOND, 100 ether);
        address attester = vm.addr(key);
        vm.deal(attester, bond);
        vm.prank(attester);
        reg.register{value: bond}(attester);
        bytes32 d = _digest(a);
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(key, d);
        (bool valid, address who) = reg.verify(a, abi.encodePacked(r, s, v));
        assertEq(who, attester, "recovered");
        assertTrue(valid == (block.timestamp <= a.expiresAt), "valid iff not expired");
        vm.prank(attester);
        reg.revoke(d);
        (valid, who) = reg.verify(a, abi.encodePacked(r, s, v));
        assertTrue(!valid, "revoked digest verifies");
        assertEq(who, attester, "recovered after revoke");
    }

    function testFuzz_verifyNeverRevertsOnGarbage(Attestation memory a, bytes memory sig) public view {
        (bool valid, ) = reg.verify(a, sig);
        assertTrue(!valid, "garbage signature verified");
    }
}
